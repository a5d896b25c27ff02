/**
 * The builder's GET helper against a local server: 200 is the body; 404 is an error unless the caller allows it. And
 * the headers withHeadersFor adds: to requests to its origin only, while its function runs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOk, NetworkError, request, withHeadersFor } from '../../src/builder/net.ts';

let server: Server;
let base = '';
/** The accept header of the last request, and its x-marker header. */
let accepted: string | undefined;
let marker: string | string[] | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    accepted = req.headers.accept;
    marker = req.headers['x-marker'];
    const status = Number(req.url!.slice(1));
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(`status ${status}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('getOk', () => {
  it('answers the body of a 200, with or without the 404 allowance, sending the accept header asked for', async () => {
    const body = await getOk(`${base}/200`, 5);
    expect(Buffer.from(body.bytes).toString('utf8')).toBe('status 200');
    expect(accepted).toBe('application/json');
    const allowed = await getOk(`${base}/200`, 5, 'application/octet-stream', { absentOn404: true });
    expect(allowed && Buffer.from(allowed.bytes).toString('utf8')).toBe('status 200');
    expect(accepted).toBe('application/octet-stream');
  });

  it('a 404 is a NetworkError, or undefined when the caller allows it', async () => {
    await expect(getOk(`${base}/404`, 5)).rejects.toThrow(new NetworkError(`GET ${base}/404 answered HTTP 404`));
    await expect(getOk(`${base}/404`, 5, 'text/plain', { absentOn404: true })).resolves.toBeUndefined();
  });

  it.each([500, 403, 410, 204])('HTTP %i is a NetworkError even with the 404 allowance', async (status) => {
    await expect(getOk(`${base}/${status}`, 5, 'text/plain', { absentOn404: true })).rejects.toThrow(`GET ${base}/${status} answered HTTP ${status}`);
  });
});

describe('withHeadersFor', () => {
  it("adds its headers to requests to its origin while its function runs, and to no other origin's", async () => {
    // Another origin: a second server, which says what marker it was sent.
    const second = createServer((req, res) => {
      marker = req.headers['x-marker'];
      res.end('ok');
    });
    await new Promise<void>((resolve) => second.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(second.address() as AddressInfo).port}`;
    const seen: Record<string, string | string[] | undefined> = {};
    await withHeadersFor(`${base}/some/path`, { 'x-marker': 'inner' }, async () => {
      await request(`${base}/200`, { method: 'GET', headers: { accept: 'text/plain' }, timeoutSeconds: 5 });
      seen.same = marker;
      expect(accepted).toBe('text/plain'); // the caller's own headers are kept
      await request(`${other}/200`, { method: 'GET', timeoutSeconds: 5 });
      seen.other = marker;
    });
    await request(`${base}/200`, { method: 'GET', timeoutSeconds: 5 });
    seen.after = marker;
    await new Promise<void>((resolve) => second.close(() => resolve()));
    expect(seen).toEqual({ same: 'inner', other: undefined, after: undefined });
  });
});
