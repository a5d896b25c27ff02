/**
 * The builder's network commands against a small local HTTP server on 127.0.0.1 (bounded: it closes after the
 * file, or by itself after two minutes): a fake gateway speaking core/record-chain/protocol.ts with receipts signed
 * by the core, the gateway keys document, and a public index (single and sharded) with raw records.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import {
  buildReceipt,
  gatewayKeyEntry,
  gatewayKeyId,
  gatewayKeysDocument,
  signReceipt,
  toWireDiagnostics,
  validateSubmissionText,
  type ErrorEnvelope,
  type PreflightResult,
  type Receipt,
  type SubmitResult,
} from '../../src/core/record-chain/index.ts';
import { bundledBuilder, propagationArgs } from './helpers.ts';

const gatewayKey = generateEd25519KeyPair();
const keysDoc = gatewayKeysDocument([gatewayKeyEntry(gatewayKey.publicKey)]);

/** What the fake site and gateway hold. */
const state = {
  receipts: new Map<string, Receipt>(),
  submitRequests: 0,
  /** GET …/record-chain/submissions/{sha} asked of the fake gateway. */
  lookups: 0,
  /** Raw archive files by id, and their listing in the index. */
  published: new Map<string, { bytes: Buffer; submissionSha256: string | null; sha256?: string }>(),
};

let server: Server;
let base = '';

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body, null, 2) + '\n');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  res.end(bytes);
}

function error(status: number, code: string, message: string, extra: Partial<ErrorEnvelope['error']> = {}): ErrorEnvelope {
  return { error: { status, code, message, ...extra } };
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function entries(): unknown[] {
  return [...state.published].map(([id, f]) => ({
    id,
    url: `/records/${id}.json`,
    sha256: f.sha256 ?? sha256Hex(f.bytes),
    submission_sha256: f.submissionSha256,
  }));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  const path = url.pathname;
  if (req.method === 'POST' && path === '/gw/record-chain/preflight') {
    const v = validateSubmissionText(await body(req));
    const result: PreflightResult = {
      valid: v.valid,
      submission_sha256: v.submissionSha256 ?? null,
      record_type: v.recordType ?? null,
      diagnostics: toWireDiagnostics(v.diagnostics),
      intake_only: true,
    };
    return send(res, 200, result);
  }
  if (req.method === 'POST' && path === '/gw/record-chain/submit') {
    state.submitRequests++;
    const v = validateSubmissionText(await body(req));
    if (!v.valid) return send(res, 422, error(422, 'invalid_submission', 'the submission is invalid', { diagnostics: toWireDiagnostics(v.diagnostics) }));
    const existing = state.receipts.get(v.submissionSha256!);
    if (existing) return send(res, 200, { receipt: existing, duplicate: true } satisfies SubmitResult);
    const receipt = signReceipt(
      buildReceipt({
        submissionSha256: v.submissionSha256!,
        recordType: v.recordType!,
        indexUrl: `${base}/api/index.json`,
        gatewayKeyId: gatewayKeyId(gatewayKey.publicKey),
      }),
      gatewayKey.privateKey,
    );
    state.receipts.set(v.submissionSha256!, receipt);
    return send(res, 202, { receipt, duplicate: false } satisfies SubmitResult);
  }
  // Answers lost after the body was sent: taken in, then the connection reset (lost) or no answer at all (slow);
  // or the connection reset before anything was stored (dropped).
  const lost = /^\/(lost|slow|dropped)\/record-chain\/submit$/.exec(path);
  if (req.method === 'POST' && lost) {
    const v = validateSubmissionText(await body(req));
    if (lost[1] !== 'dropped' && !state.receipts.has(v.submissionSha256!)) {
      const receipt = signReceipt(
        buildReceipt({ submissionSha256: v.submissionSha256!, recordType: v.recordType!, indexUrl: `${base}/api/index.json`, gatewayKeyId: gatewayKeyId(gatewayKey.publicKey) }),
        gatewayKey.privateKey,
      );
      state.receipts.set(v.submissionSha256!, receipt);
    }
    if (lost[1] !== 'slow') req.socket.destroy();
    return;
  }
  const lookup = /^\/(?:lost|slow|dropped|gw)\/record-chain\/submissions\/([^/]+)$/.exec(path);
  if (req.method === 'GET' && lookup) {
    state.lookups++;
    const receipt = state.receipts.get(lookup[1]!);
    if (!receipt) return send(res, 404, error(404, 'not_found', 'no submission with that submission_sha256 was taken in here; submit it'));
    return send(res, 200, { receipt, status: 'accepted', archive_id: 'echo-2026-11-24-000001', decided_at: '2026-11-24T00:00:00.000Z' });
  }
  if (req.method === 'POST' && path === '/busy/record-chain/submit') {
    await body(req);
    return send(res, 429, error(429, 'rate_limited', 'too many submissions', { retry_after_seconds: 30 }), { 'retry-after': '30' });
  }
  if (req.method === 'POST' && path === '/strict/record-chain/submit') {
    await body(req);
    const diagnostics = [{ severity: 'error' as const, rule: 'chain/example', message: 'refused by the gateway', pointer: '/record', line: 3, column: 3, hint: 'fix it' }];
    return send(res, 422, error(422, 'invalid_submission', 'the submission is invalid', { diagnostics }));
  }
  if (req.method === 'POST' && path === '/wrong/record-chain/submit') {
    await body(req);
    const other = signReceipt(
      buildReceipt({ submissionSha256: 'f'.repeat(64), recordType: 'propagation', indexUrl: `${base}/api/index.json`, gatewayKeyId: gatewayKeyId(gatewayKey.publicKey) }),
      gatewayKey.privateKey,
    );
    return send(res, 202, { receipt: other, duplicate: false });
  }
  if (req.method === 'GET' && path === '/api/gateway-keys.json') return send(res, 200, keysDoc);
  if (req.method === 'GET' && path === '/api/index.json') {
    return send(res, 200, { schema: 'service.public-index.v1', version: 'v1', notes: [], record_count: state.published.size, counts: {}, records: entries() });
  }
  if (req.method === 'GET' && path === '/sharded/api/index.json') {
    const shard = Buffer.from(JSON.stringify({ schema: 'service.public-index-shard.v1', version: 'v1', index: '/api/index.json', shard: 1, records: entries() }));
    shardBytes = shard;
    return send(res, 200, { schema: 'service.public-index.v1', version: 'v1', shards: [{ url: '/api/index/1.json', sha256: sha256Hex(shard), records: 1, first_id: 'a', last_id: 'z' }] });
  }
  if (req.method === 'GET' && path === '/sharded/api/index/1.json') return send(res, 200, shardBytes);
  if (req.method === 'GET' && path === '/broken/api/index.json') return send(res, 500, error(500, 'internal', 'broken'));
  const raw = /^(?:\/sharded)?\/records\/([^/]+)\.json$/.exec(path);
  if (req.method === 'GET' && raw) {
    const f = state.published.get(raw[1]!);
    if (f) return send(res, 200, f.bytes);
  }
  return send(res, 404, error(404, 'not_found', `no ${path}`));
}
let shardBytes = Buffer.alloc(0);

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, error(500, 'internal', String(err))));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Bounded: whatever happens to the test run, the server does not outlive it by much.
  setTimeout(() => server.close(), 120_000).unref();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
});

// The bundle's defaults point at a closed port: every command below names its server explicitly, except where
// the defaults themselves are tested.
const builder = bundledBuilder({ siteUrl: 'http://127.0.0.1:9', gatewayUrl: 'http://127.0.0.1:9' });

async function prepared(summary?: string): Promise<{ dir: string; sha: string }> {
  const dir = builder.tempDir();
  expect((await builder.run(['keygen', '--key-dir', 'keys'], { cwd: dir })).code).toBe(0);
  const r = await builder.run(propagationArgs('keys', 'p.json', summary), { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return { dir, sha: /submission_sha256 ([a-f0-9]{64})/.exec(r.stderr)![1]! };
}

function publish(id: string, submissionSha256: string | null, extra: Record<string, unknown> = {}, listedSha?: string): void {
  const record = { schema: 'service.echo.v3', extensions: { record_chain: { submission_sha256: submissionSha256 } }, ...extra };
  const bytes = Buffer.from(JSON.stringify(record, null, 2) + '\n');
  state.published.set(id, { bytes, submissionSha256, ...(listedSha ? { sha256: listedSha } : {}) });
}

describe('preflight', () => {
  it('a valid submission: exit 0, nothing stored', async () => {
    const { dir, sha } = await prepared();
    const r = await builder.run(['preflight', '--file', 'p.json', '--gateway', `${base}/gw`], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`valid (submission_sha256 ${sha})`);
    expect(state.receipts.has(sha)).toBe(false);
  });

  it('an invalid one: exit 1 with the gateway’s diagnostics', async () => {
    const { dir } = await prepared();
    writeFileSync(join(dir, 't.json'), readFileSync(join(dir, 'p.json'), 'utf8').replace('verification paths', 'verification path'));
    const r = await builder.run(['preflight', '--file', 't.json', '--gateway', `${base}/gw`], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('chain/content-hash');
  });

  it('an unreachable gateway (the baked-in default here): exit 2', async () => {
    const { dir } = await prepared();
    const r = await builder.run(['preflight', '--file', 'p.json', '--timeout', '5'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:9/record-chain/preflight');
  });
});

describe('submit and receipt', () => {
  it('submit → receipt verifies; a retry returns the original receipt', async () => {
    const { dir, sha } = await prepared();
    const r = await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/gw`, '--receipt-out', 'r.json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('intake only');
    const receipt = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Receipt;
    expect(receipt).toMatchObject({ submission_sha256: sha, status: 'pending', intake_only: true, final_inclusion_requires_public_index_readback: true });

    const again = await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/gw`], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already received earlier');
    expect(JSON.parse(again.stdout)).toEqual(receipt);

    const byUrl = await builder.run(['receipt', '--file', 'r.json', '--keys', `${base}/api/gateway-keys.json`, '--submission', 'p.json'], { cwd: dir });
    expect(byUrl.code, byUrl.stdout + byUrl.stderr).toBe(0);
    expect(byUrl.stderr).toContain(`verified with gateway key ${gatewayKeyId(gatewayKey.publicKey)}`);
    writeFileSync(join(dir, 'keys.json'), JSON.stringify(keysDoc));
    expect((await builder.run(['receipt', '--file', 'r.json', '--keys', 'keys.json'], { cwd: dir })).code).toBe(0);
  });

  it('a forged receipt: exit 1', async () => {
    const { dir } = await prepared('Shared the verification paths and the boundary statement.');
    expect((await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/gw`, '--receipt-out', 'r.json'], { cwd: dir })).code).toBe(0);
    const receipt = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as Receipt;
    writeFileSync(join(dir, 'forged.json'), JSON.stringify({ ...receipt, received_at: '2020-01-01T00:00:00Z' }, null, 2));
    const r = await builder.run(['receipt', '--file', 'forged.json', '--keys', `${base}/api/gateway-keys.json`], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('receipt/signature');
    expect(r.stderr).toContain('does NOT verify');
    // A genuine receipt for another submission.
    const other = await prepared('Invited critique of the verification claim model.');
    const mismatch = await builder.run(['receipt', '--file', join(dir, 'r.json'), '--keys', `${base}/api/gateway-keys.json`, '--submission', 'p.json'], { cwd: other.dir });
    expect(mismatch.code).toBe(1);
    expect(mismatch.stdout).toContain('receipt/mismatch');
  });

  it('an invalid submission is not sent (exit 1)', async () => {
    const { dir } = await prepared();
    writeFileSync(join(dir, 't.json'), readFileSync(join(dir, 'p.json'), 'utf8').replace('verification paths', 'verification path'));
    const before = state.submitRequests;
    const r = await builder.run(['submit', '--file', 't.json', '--gateway', `${base}/gw`], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not submitted');
    expect(state.submitRequests).toBe(before);
  });

  it('the gateway refuses (422): exit 1 with its diagnostics; rate limited (429): exit 2 with Retry-After', async () => {
    const { dir } = await prepared();
    const refused = await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/strict`], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('p.json:3:3 error chain/example refused by the gateway');
    expect(refused.stderr).toContain('HTTP 422 invalid_submission');
    const busy = await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/busy`], { cwd: dir });
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain('Retry-After: 30');
  });

  it('the answer to a submit is lost after sending: submit asks the gateway by submission_sha256 instead of guessing', async () => {
    // Taken in, then the connection reset: the stored receipt, exit 0, and it verifies.
    const taken = await prepared('Shared the verification paths; the connection reset after sending.');
    const lookupsBefore = state.lookups;
    const r = await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/lost`, '--receipt-out', 'r.json'], { cwd: taken.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`asking whether the gateway took it in: GET ${base}/lost/record-chain/submissions/${taken.sha}`);
    expect(r.stderr).toContain('the gateway had taken it in: this is its receipt (review status now accepted); do not submit again');
    expect(JSON.parse(readFileSync(join(taken.dir, 'r.json'), 'utf8'))).toEqual(state.receipts.get(taken.sha));
    expect((await builder.run(['receipt', '--file', 'r.json', '--keys', `${base}/api/gateway-keys.json`, '--submission', 'p.json'], { cwd: taken.dir })).code).toBe(0);
    expect(state.lookups).toBe(lookupsBefore + 1);

    // No answer within --timeout: the same.
    const slow = await prepared('Shared the verification paths; the answer never came.');
    const s = await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/slow`, '--timeout', '1'], { cwd: slow.dir });
    expect(s.code, s.stderr).toBe(0);
    expect(s.stderr).toContain('no answer within 1 s');
    expect(JSON.parse(s.stdout)).toEqual(state.receipts.get(slow.sha));

    // Reset before anything was stored: the lookup's 404 says to submit again (exit 2), nothing written.
    const dropped = await prepared('Shared the verification paths; the gateway dropped the connection.');
    const d = await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/dropped`, '--receipt-out', 'r.json'], { cwd: dropped.dir });
    expect(d.code).toBe(2);
    expect(d.stderr).toContain('not taken in (HTTP 404): submit the same file again (safe: the same content has the same identity)');
    expect(existsSync(join(dropped.dir, 'r.json'))).toBe(false);

    // Refused before sending (nothing can have arrived): no lookup.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const lookups = state.lookups;
    const refused = await builder.run(['submit', '--file', 'p.json', '--gateway', `http://127.0.0.1:${closedPort}`], { cwd: dropped.dir });
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('ECONNREFUSED')]);
    expect(refused.stderr).not.toContain('asking whether');
    expect(state.lookups).toBe(lookups);
  });

  it('a receipt for another submission is not trusted (exit 2)', async () => {
    const { dir } = await prepared();
    const r = await builder.run(['submit', '--file', 'p.json', '--gateway', `${base}/wrong`, '--receipt-out', 'r.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not trusted');
  });

  it('keys that are not a gateway keys document: exit 2', async () => {
    const { dir } = await prepared();
    writeFileSync(join(dir, 'r.json'), '{}');
    writeFileSync(join(dir, 'keys.json'), '{"schema": "something else"}');
    expect((await builder.run(['receipt', '--file', 'r.json', '--keys', 'keys.json'], { cwd: dir })).code).toBe(2);
  });
});

describe('readback', () => {
  it('not yet included: exit 1; once published: exit 0, from the file or the hash', async () => {
    const { dir, sha } = await prepared('Preserved access to the public index by mirroring it.');
    const before = await builder.run(['readback', '--file', 'p.json', '--index', `${base}/api/index.json`], { cwd: dir });
    expect(before.code, before.stderr).toBe(1);
    expect(before.stderr).toContain('not (yet) included');

    publish('echo-2026-11-22-000100', sha);
    const byFile = await builder.run(['readback', '--file', 'p.json', '--index', `${base}/api/index.json`], { cwd: dir });
    expect(byFile.code, byFile.stderr).toBe(0);
    expect(byFile.stdout).toBe(`included: echo-2026-11-22-000100 ${base}/records/echo-2026-11-22-000100.json sha256 ${sha256Hex(state.published.get('echo-2026-11-22-000100')!.bytes)}\n`);
    const byHash = await builder.run(['readback', '--submission-sha256', sha.toUpperCase(), '--index', `${base}/api/index.json`], { cwd: dir });
    expect(byHash.code).toBe(0);
  });

  it('a sharded index: the shards are read and checked', async () => {
    const { dir, sha } = await prepared('Linked to the canonical sources of the work.');
    publish('echo-2026-11-22-000101', sha);
    const r = await builder.run(['readback', '--submission-sha256', sha, '--index', `${base}/sharded/api/index.json`], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${base}/sharded/records/echo-2026-11-22-000101.json`);
  });

  it('listed, but the raw bytes do not match the listed sha256: exit 1', async () => {
    const { dir, sha } = await prepared('Summarized the boundaries of the archive.');
    publish('echo-2026-11-22-000102', sha, {}, '0'.repeat(64));
    const r = await builder.run(['readback', '--submission-sha256', sha, '--index', `${base}/api/index.json`], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not verifiably included');
  });

  it('listed, but the archived record names another submission: exit 1', async () => {
    const { dir, sha } = await prepared('Shared verification paths with two agents.');
    publish('echo-2026-11-22-000103', sha);
    const f = state.published.get('echo-2026-11-22-000103')!;
    const other = Buffer.from(f.bytes.toString('utf8').replace(sha, 'e'.repeat(64)));
    state.published.set('echo-2026-11-22-000103', { bytes: other, submissionSha256: sha });
    const r = await builder.run(['readback', '--submission-sha256', sha, '--index', `${base}/api/index.json`], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not this submission');
  });

  it('errors: a broken index, an unreachable site (the baked-in default), bad arguments: exit 2', async () => {
    const sha = 'd'.repeat(64);
    const broken = await builder.run(['readback', '--submission-sha256', sha, '--index', `${base}/broken/api/index.json`]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('HTTP 500');
    const unreachable = await builder.run(['readback', '--submission-sha256', sha, '--timeout', '5']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain('http://127.0.0.1:9/api/index.json');
    expect((await builder.run(['readback', '--submission-sha256', 'xyz'])).code).toBe(2);
    expect((await builder.run(['readback'])).code).toBe(2);
    expect((await builder.run(['readback', '--file', 'a.json', '--submission-sha256', sha])).code).toBe(2);
  });
});
