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

describe('receipt against a site that publishes no gateway keys (item 5)', () => {
  it('an empty key list: not a forgery; says the site publishes none, what to do, exit 2', async () => {
    const dir = builder.tempDir();
    receiptFile(dir);
    const r = await builder.run(['receipt', '--file', 'receipt.json', '--keys', `${base}/api/gateway-keys.json`], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('lists no gateway keys: the site publishes none');
    expect(r.stderr).toContain('cannot be checked against this site');
    expect(r.stderr).toContain('--keys');
    expect(r.stderr + r.stdout).not.toContain('does NOT verify');
    expect(r.stdout).not.toContain('not issued by this gateway');
    // The same from a file.
    writeFileSync(join(dir, 'keys.json'), JSON.stringify(gatewayKeysDocument([])));
    const local = await builder.run(['receipt', '--file', 'receipt.json', '--keys', 'keys.json'], { cwd: dir });
    expect(local.code).toBe(2);
    expect(local.stderr).toContain('lists no gateway keys');
  });

  it('a key list that exists and lacks the key still does NOT verify (exit 1)', async () => {
    const dir = builder.tempDir();
    receiptFile(dir);
    const r = await builder.run(['receipt', '--file', 'receipt.json', '--keys', `${base}/other/api/gateway-keys.json`], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('receipt/unknown-key');
    expect(r.stderr).toContain('does NOT verify');
  });

  it('--help documents the exit status of an empty key list', async () => {
    const r = await builder.run(['receipt', '--help']);
    expect(r.stdout).toMatch(/lists no key at all[^]*exit 2/);
  });
});

describe('readback --save-checkpoint on a site without a log (item 5)', () => {
  it('says nothing was saved and why, writes no file, exits 2; without the option, exit 0 as before', async () => {
    const dir = builder.tempDir();
    const r = await builder.run(['readback', '--id', RECORD_ID, '--index', `${base}/api/index.json`, '--save-checkpoint', 'cp.txt'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain(`included: ${RECORD_ID}`);
    expect(r.stderr).toContain('nothing was saved to cp.txt: the site publishes no signed checkpoint (it has no transparency-log key');
    expect(existsSync(join(dir, 'cp.txt'))).toBe(false);
    const plain = await builder.run(['readback', '--id', RECORD_ID, '--index', `${base}/api/index.json`], { cwd: dir });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).not.toContain('nothing was saved');
  });
});

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

describe('readback --id malformed (item 9b)', () => {
  it.each([
    ['echo-2026-1-14-1', 'the number is malformed'],
    ['echo-2026-01-14-000001.json', 'the id is the file name without .json (--id echo-2026-01-14-000001)'],
    ['records/2026/echo-2026-01-14-000001', 'no spaces, slashes'],
    ['d'.repeat(64), 'is a SHA-256, not a record id: give it with --submission-sha256'],
  ])('%s: says it is malformed and what an id looks like (exit 2), before asking the site', async (id, expected) => {
    const r = await builder.run(['readback', '--id', id, '--index', `${base}/api/index.json`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(expected);
    expect(r.stderr).toContain('echo-YYYY-MM-DD-NNNNNN');
    expect(r.stderr).not.toContain('not (yet) included');
  });

  it('a well-formed id that is not listed is still "not (yet) included" (exit 1)', async () => {
    const r = await builder.run(['readback', '--id', 'echo-2026-01-14-000099', '--index', `${base}/api/index.json`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not (yet) included');
  });
});

describe('an unreachable gateway (item 9c)', () => {
  it('the default gateway: names the address tried, says it is the default, and names --gateway', async () => {
    const dir = builder.tempDir();
    writeFileSync(join(dir, 'p.json'), '{}');
    const r = await builder.run(['preflight', '--file', 'p.json', '--timeout', '5'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:9/record-chain/preflight: ');
    expect(r.stderr).toContain('the gateway this builder was built for (GATEWAY_URL when it was bundled); give another with --gateway URL');
  });

  it('a refused connection to a gateway given with --gateway: said plainly, and to check --gateway', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const dir = builder.tempDir();
    writeFileSync(join(dir, 'p.json'), '{}');
    const r = await builder.run(['preflight', '--file', 'p.json', '--gateway', `http://127.0.0.1:${port}/gw`, '--timeout', '5'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}/gw/record-chain/preflight: the connection was refused: nothing answers at that address and port (ECONNREFUSED)`);
    expect(r.stderr).toContain('Check the gateway you gave with --gateway');
  });

  it('an unknown host: said plainly', async () => {
    const dir = builder.tempDir();
    writeFileSync(join(dir, 'p.json'), '{}');
    const r = await builder.run(['preflight', '--file', 'p.json', '--gateway', 'http://gateway.invalid', '--timeout', '5'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach http:\/\/gateway\.invalid\/record-chain\/preflight: the host name (was not found|could not be looked up)/);
    expect(r.stderr).toContain('--gateway');
  });

  it('the default public index of readback: names --index', async () => {
    const r = await builder.run(['readback', '--id', RECORD_ID, '--timeout', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:9/api/index.json');
    expect(r.stderr).toContain('--index URL');
  });
});

describe('an unreachable site (item 9c)', () => {
  it('monitor with the default site: names the address and --site', async () => {
    const dir = builder.tempDir();
    writeFileSync(join(dir, 'cp.txt'), 'a checkpoint\n');
    const r = await builder.run(['monitor', '--checkpoint', 'cp.txt', '--timeout', '5'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:9/api/log.json');
    expect(r.stderr).toContain('It is the site this builder was built for (its SITE_URL); give another with --site URL.');
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
