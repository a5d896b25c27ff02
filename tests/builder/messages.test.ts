/**
 * Builder messages that must send the user the right way (issue 26, items 5 and 9), against a small local site on
 * 127.0.0.1 that publishes no gateway keys and no transparency log: a receipt that cannot be checked is not called a
 * forgery, a checkpoint that does not exist is not silently "saved", the wrong document given to doctor is named, a
 * malformed record id is called malformed, an unreachable gateway names its address and --gateway, and a mistyped
 * option gets the nearest one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { buildReceipt, gatewayKeyEntry, gatewayKeyId, gatewayKeysDocument, signReceipt } from '../../src/core/record-chain/index.ts';
import { bundledBuilder } from './helpers.ts';

const gatewayKey = generateEd25519KeyPair();
const otherKey = generateEd25519KeyPair();
const RECORD_ID = 'echo-2026-11-22-000200';
const recordBytes = Buffer.from(JSON.stringify({ schema: 'service.echo.v3', echo: 'An archived record.' }, null, 2) + '\n');

let server: Server;
let base = '';

function send(res: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body, null, 2) + '\n');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
  res.end(bytes);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', base).pathname;
  // A site built without gateway keys publishes an empty list (src/gateway/published-keys.ts); another lists a key.
  if (path === '/api/gateway-keys.json') return send(res, 200, gatewayKeysDocument([]));
  if (path === '/other/api/gateway-keys.json') return send(res, 200, gatewayKeysDocument([gatewayKeyEntry(otherKey.publicKey)]));
  if (path === '/api/index.json') {
    return send(res, 200, {
      schema: 'service.public-index.v1',
      version: 'v1',
      records: [{ id: RECORD_ID, url: `/records/${RECORD_ID}.json`, sha256: sha256Hex(recordBytes), submission_sha256: null }],
    });
  }
  if (path === `/records/${RECORD_ID}.json`) return send(res, 200, recordBytes);
  // No /api/log.json and no /log/checkpoint: a site built without a log key.
  return send(res, 404, { error: { status: 404, code: 'not_found', message: `no ${path}` } });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setTimeout(() => server.close(), 120_000).unref();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

// The bundle's defaults point at a closed port.
const builder = bundledBuilder({ siteUrl: 'http://127.0.0.1:9', gatewayUrl: 'http://127.0.0.1:9' });

function receiptFile(dir: string): string {
  const receipt = signReceipt(
    buildReceipt({ submissionSha256: 'a'.repeat(64), recordType: 'propagation', indexUrl: `${base}/api/index.json`, gatewayKeyId: gatewayKeyId(gatewayKey.publicKey) }),
    gatewayKey.privateKey,
  );
  const file = join(dir, 'receipt.json');
  writeFileSync(file, JSON.stringify(receipt, null, 2) + '\n');
  return file;
}

describe('doctor given another document (item 9a)', () => {
  it('a receipt: "this is a receipt: use receipt --file", not a schema complaint', async () => {
    const dir = builder.tempDir();
    receiptFile(dir);
    const r = await builder.run(['doctor', '--file', 'receipt.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('this is a receipt');
    expect(r.stderr).toContain('receipt --file receipt.json');
    expect(r.stdout + r.stderr).not.toContain('submission.v1');
  });

  it.each([
    ['gateway keys', () => gatewayKeysDocument([]), 'receipt --file RECEIPT --keys doc.json'],
    ['the public index', () => ({ schema: 'service.public-index.v1', version: 'v1', records: [] }), 'readback --id'],
    ['an archived record', () => ({ schema: 'service.echo.v3' }), 'this is an archived record'],
  ])('%s: named, with the command that reads it', async (_what, doc, expected) => {
    const dir = builder.tempDir();
    writeFileSync(join(dir, 'doc.json'), JSON.stringify(doc()));
    const r = await builder.run(['doctor', '--file', 'doc.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(expected);
  });
});

describe('an unknown option (item 9d)', () => {
  it('--keydir: did you mean --key-dir', async () => {
    const r = await builder.run(['keygen', '--keydir', 'keys']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown option '--keydir': did you mean --key-dir?");
  });

  it('--submission_sha256 and --save-checkpont: the nearest option; nothing near: no guess', async () => {
    expect((await builder.run(['readback', '--submission_sha256', 'x'])).stderr).toContain('did you mean --submission-sha256?');
    expect((await builder.run(['readback', '--id', RECORD_ID, '--save-checkpont', 'cp.txt'])).stderr).toContain('did you mean --save-checkpoint?');
    const far = await builder.run(['doctor', '--file', 'x.json', '--fast']);
    expect(far.code).toBe(2);
    expect(far.stderr).not.toContain('did you mean');
  });
});
