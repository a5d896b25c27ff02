/**
 * The in-flight limit (GatewayOptions.maxInFlight): requests beyond it are answered 503 `overloaded` at once, body
 * unread, nothing stored; the requests being handled finish normally, and the next request after them is served.
 */
import { request, type ClientRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serializeSubmission, PREFLIGHT_PATH, SUBMIT_PATH } from '../../src/core/record-chain/index.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { postJson, startGateway, type RunningGateway } from './helpers.ts';

/** A POST whose body is sent in two parts: the request is in flight (headers read, body pending) until `finish`. */
function slowPost(url: string, path: string, body: string): { req: ClientRequest; finish: () => void; answer: Promise<{ status: number; body: string }> } {
  const { hostname, port } = new URL(url);
  const bytes = Buffer.from(body);
  const req = request({ host: hostname, port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': bytes.length } });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.write(bytes.subarray(0, 10));
  return { req, finish: () => req.end(bytes.subarray(10)), answer };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gateway: in-flight limit', () => {
  let gw: RunningGateway | undefined;
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  const body = (summary: string) => serializeSubmission(submission('propagation', record('propagation', { summary })));

  it('answers 503 overloaded with Retry-After beyond the limit, stores nothing for it, and serves again after', async () => {
    gw = await startGateway({ maxInFlight: 2 });
    const a = slowPost(gw.url, SUBMIT_PATH, body('First of two slow submissions; the originals prevail.'));
    const b = slowPost(gw.url, PREFLIGHT_PATH, body('A slow preflight; the originals prevail.'));
    await sleep(200); // both requests' headers have reached the gateway

    const shed = await postJson(gw.url + SUBMIT_PATH, body('Sent while the gateway is at capacity; the originals prevail.'));
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.body.error).toMatchObject({ code: 'overloaded' });

    a.finish();
    b.finish();
    expect((await a.answer).status).toBe(202);
    expect((await b.answer).status).toBe(200);
    // only the submission that was handled is stored
    expect((await gw.store.list()).map((s) => s.receipt.submission_sha256)).toEqual([JSON.parse((await a.answer).body).receipt.submission_sha256]);

    const after = await postJson(gw.url + SUBMIT_PATH, body('Sent after the slow requests finished; the originals prevail.'));
    expect(after.status).toBe(202);
  });

  it('under the limit nothing is shed', async () => {
    gw = await startGateway({ maxInFlight: 3 });
    const a = slowPost(gw.url, SUBMIT_PATH, body('First of two slow submissions; the originals prevail.'));
    const b = slowPost(gw.url, SUBMIT_PATH, body('Second of two slow submissions; the originals prevail.'));
    await sleep(200);
    const third = await postJson(gw.url + PREFLIGHT_PATH, body('A third request, within the limit; the originals prevail.'));
    expect(third.status).toBe(200);
    a.finish();
    b.finish();
    expect([(await a.answer).status, (await b.answer).status]).toEqual([202, 202]);
  });
});
