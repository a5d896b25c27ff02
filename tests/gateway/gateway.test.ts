/** The gateway's HTTP semantics (issue 4): one server per describe on 127.0.0.1, port 0. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { gatewayKeyId, recordChainLimits, serializeSubmission, signReceipt, verifyReceipt, PREFLIGHT_PATH, RECEIPTS_PATH, SUBMIT_PATH, type Submission } from '../../src/core/record-chain/index.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { call, failingStore, postJson, startGateway, type RunningGateway } from './helpers.ts';

function text(sub: Submission): string {
  return serializeSubmission(sub);
}

function propagation(summary: string): Submission {
  return submission('propagation', record('propagation', { summary }));
}

describe('gateway: preflight, submit, receipts', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => {
    await gw.stop();
  });

  it('preflight answers 200 with the verdict and never writes', async () => {
    const ok = await postJson(gw.url + PREFLIGHT_PATH, text(propagation('Pointed readers to the verification paths.')));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, record_type: 'propagation', intake_only: true, diagnostics: [] });
    expect(ok.body.submission_sha256).toMatch(/^[0-9a-f]{64}$/);

    const tampered = propagation('Pointed readers to the verification paths.');
    (tampered.record as { summary: string }).summary = 'changed after signing';
    const bad = await postJson(gw.url + PREFLIGHT_PATH, text(tampered));
    expect(bad.status).toBe(200);
    expect(bad.body.valid).toBe(false);
    expect(bad.body.diagnostics.map((d: { rule: string }) => d.rule)).toContain('chain/content-hash');
    expect(await gw.store.list()).toEqual([]);
  });

  it('submit: 202 with a signed receipt; a retry is 200 duplicate with the original receipt; one intake', async () => {
    const sub = propagation('Shared the verification paths on a forum.');
    const first = await postJson(gw.url + SUBMIT_PATH, text(sub));
    expect(first.status).toBe(202);
    expect(first.body.duplicate).toBe(false);
    const receipt = first.body.receipt;
    expect(receipt).toMatchObject({ status: 'pending', intake_only: true, final_inclusion_requires_public_index_readback: true, record_type: 'propagation' });
    expect(receipt.readback.index_url).toBe('http://127.0.0.1:1/api/index.json');
    expect(first.headers.get('location')).toBe(`${RECEIPTS_PATH}/${receipt.receipt_id}`);

    const verified = verifyReceipt(receipt, gw.keys.document, { submissionSha256: receipt.submission_sha256, recordType: 'propagation' });
    expect(verified.valid).toBe(true);

    // Same content, rebuilt with another client time: same identity.
    const again = { ...sub, client: { ...sub.client, generated_at: '2030-01-01T00:00:00.000Z' } };
    const retry = await postJson(gw.url + SUBMIT_PATH, text(again));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ receipt, duplicate: true });
    expect((await gw.store.list()).filter((s) => s.submissionSha256 === receipt.submission_sha256)).toHaveLength(1);

    const status = await call(`${gw.url}${RECEIPTS_PATH}/${receipt.receipt_id}`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ receipt, status: 'pending' });

    await gw.store.decide(receipt.receipt_id, { status: 'rejected', reason: 'off topic', decidedAt: new Date().toISOString() });
    const rejected = await call(`${gw.url}${RECEIPTS_PATH}/${receipt.receipt_id}`);
    expect(rejected.body).toMatchObject({ status: 'rejected', reason: 'off topic' });
    expect(rejected.body.archive_id).toBeUndefined();
  });

  it('the receipt status route reports the final state: accepted with the archive id', async () => {
    const first = await postJson(gw.url + SUBMIT_PATH, text(propagation('Pointed readers to the public index and said what I did not check.')));
    const receipt = first.body.receipt;
    await gw.store.decide(receipt.receipt_id, { status: 'accepted', archivePath: '2026/echo-2026-11-22-000042.json', decidedAt: '2026-11-22T12:00:00.000Z' });
    const accepted = await call(`${gw.url}${RECEIPTS_PATH}/${receipt.receipt_id}`);
    expect(accepted.body).toEqual({ receipt, status: 'accepted', archive_id: 'echo-2026-11-22-000042', decided_at: '2026-11-22T12:00:00.000Z' });
  });

  it('a forged or altered receipt does not verify', async () => {
    const first = await postJson(gw.url + SUBMIT_PATH, text(propagation('Described what I checked and what I did not.')));
    const receipt = first.body.receipt;
    const altered = { ...receipt, submission_sha256: 'f'.repeat(64) };
    const v1 = verifyReceipt(altered, gw.keys.document);
    expect(v1.valid).toBe(false);
    expect(v1.findings.map((f) => f.rule)).toContain('receipt/signature');
    // Signed by someone else's key: unknown to the published keys.
    const other = generateEd25519KeyPair();
    const { signature: _s, ...unsigned } = receipt;
    const forged = signReceipt({ ...unsigned, gateway_key_id: gatewayKeyId(other.publicKey) }, other.privateKey);
    const v2 = verifyReceipt(forged, gw.keys.document);
    expect(v2.valid).toBe(false);
    expect(v2.findings.map((f) => f.rule)).toContain('receipt/unknown-key');
    // Claiming the gateway's key id with a made-up signature.
    const v3 = verifyReceipt({ ...receipt, signature: Buffer.alloc(64, 1).toString('base64') }, gw.keys.document);
    expect(v3.valid).toBe(false);
  });

  it('unknown receipts are 404 in the error envelope', async () => {
    const r = await call(`${gw.url}${RECEIPTS_PATH}/rcpt_${'0'.repeat(32)}`);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ status: 404, code: 'not_found' });
    expect((await call(`${gw.url}${RECEIPTS_PATH}/../../etc`)).status).toBe(404);
    expect((await call(`${gw.url}${RECEIPTS_PATH}/%E0%A4%A`)).status).toBe(404);
    expect((await call(`${gw.url}/nowhere`)).status).toBe(404);
  });

  it('422 with the core diagnostics for an invalid submission (tampered, not an envelope, too deep)', async () => {
    const tampered = propagation('Pointed readers to the verification paths.');
    (tampered.record as { summary: string }).summary = 'changed after signing';
    const r = await postJson(gw.url + SUBMIT_PATH, text(tampered));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('invalid_submission');
    const d = r.body.error.diagnostics[0];
    expect(Object.keys(d).sort()).toEqual(['column', 'hint', 'line', 'message', 'pointer', 'rule', 'severity']);
    expect(r.body.error.diagnostics.map((x: { rule: string }) => x.rule)).toContain('chain/content-hash');
    for (const body of ['[]', 'null', '{}', '"x"', '{"schema":1}', '['.repeat(50) + ']'.repeat(50)]) {
      const a = await postJson(gw.url + SUBMIT_PATH, body);
      expect(a.status, body).toBe(422);
    }
  });

  it('400 for malformed JSON, 415 for a wrong content type, 405 for a wrong method', async () => {
    for (const body of ['{"a":', '{"a":1,"a":2}', '\ufeff{}', '{bad}']) {
      const r = await postJson(gw.url + SUBMIT_PATH, body);
      expect(r.status, body).toBe(400);
      expect(r.body.error.code).toBe('invalid_json');
    }
    const bytes = await postJson(gw.url + SUBMIT_PATH, new Uint8Array([0x7b, 0xff, 0x7d]));
    expect(bytes.status).toBe(400);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']) {
      const r = await postJson(gw.url + SUBMIT_PATH, '{}', type);
      expect(r.status, type).toBe(415);
      expect(r.body.error.code).toBe('unsupported_media_type');
    }
    const noType = await call(gw.url + PREFLIGHT_PATH, { method: 'POST', body: new Uint8Array([1]) });
    expect(noType.status).toBe(415);
    expect((await call(gw.url + SUBMIT_PATH)).status).toBe(405);
  });

  it('413 on Content-Length and while streaming a chunked body', async () => {
    const max = recordChainLimits().max_body_bytes;
    const big = '{"x":"' + 'a'.repeat(max) + '"}';
    const r = await postJson(gw.url + SUBMIT_PATH, big);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('body_too_large');
    expect(r.body.error.diagnostics[0].rule).toBe('chain/limit-body-size');

    // No Content-Length: chunked; the gateway stops reading once the limit is passed.
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(gw.url + SUBMIT_PATH);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      const chunk = 'a'.repeat(16 * 1024);
      req.write('{"x":"');
      let sent = 0;
      const pump = () => {
        while (sent < max * 4) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end('"}');
      };
      pump();
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error.code).toBe('body_too_large');
  });

  it('request targets that are not plain URL paths ("//", "*") are 404 in the envelope, never 500 (found by tests/fuzz)', async () => {
    const port = new URL(gw.url).port;
    const raw = (method: string, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of ['//', '//%00', `//x${SUBMIT_PATH}`, '*']) {
      const r = await raw(path === '*' ? 'OPTIONS' : 'GET', path);
      expect([r.status, JSON.parse(r.body).error.code], path).toEqual([404, 'not_found']);
    }
    // "//" starts a path, not a host: the path "//record-chain/submit" is no route either
    expect((await raw('POST', `/${SUBMIT_PATH}`)).status).toBe(404);
  });

  it('a record with an unpaired surrogate escape is an invalid submission (422), not a 500 (found by tests/fuzz)', async () => {
    const body = text(propagation('Pointed readers to the verification paths.')).replace('"summary": "', '"summary": "\\ud800');
    const pre = await postJson(gw.url + PREFLIGHT_PATH, body);
    expect(pre.status).toBe(200);
    expect(pre.body).toMatchObject({ valid: false, submission_sha256: null });
    const r = await postJson(gw.url + SUBMIT_PATH, body);
    expect(r.status).toBe(422);
    expect(r.body.error.diagnostics.map((d: { rule: string; pointer: string }) => [d.rule, d.pointer])).toEqual([['chain/content-hash', '/record/summary']]);
  });

  it('410 with the current route on retired paths', async () => {
    for (const path of ['/agent-submit', '/gateway/preflight', '/gateway/submit', '/api/agent-submit-gateway.json']) {
      const r = await call(gw.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(r.status, path).toBe(410);
      expect(r.body.error).toMatchObject({ code: 'retired_path', current_route: { submit: 'POST http://127.0.0.1:2/record-chain/submit', preflight: 'POST http://127.0.0.1:2/record-chain/preflight' } });
    }
  });

  it('healthz and the keys document', async () => {
    const h = await call(gw.url + '/healthz');
    expect(h.status).toBe(200);
    expect(h.body.status).toBe('ok');
    const k = await call(gw.url + '/api/gateway-keys.json');
    expect(k.status).toBe(200);
    expect(k.body).toEqual(gw.keys.document);
    expect(k.body.keys[0]).toMatchObject({ key_id: gw.keys.keyId, status: 'active', algorithm: 'ed25519' });
  });
});

describe('gateway: rate limits', () => {
  it('a flood from one client gets 429 with Retry-After', async () => {
    const gw = await startGateway({ rateLimit: { perClient: { burst: 3, perSecond: 0.01 }, global: { burst: 1000, perSecond: 100 } } });
    try {
      const body = text(propagation('Pointed readers to the verification paths.'));
      const answers = await Promise.all(Array.from({ length: 10 }, () => postJson(gw.url + PREFLIGHT_PATH, body)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(7);
      const limited = answers.find((a) => a.status === 429)!;
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body.error).toMatchObject({ code: 'rate_limited' });
      expect(limited.body.error.retry_after_seconds).toBe(Number(limited.headers.get('retry-after')));
    } finally {
      await gw.stop();
    }
  });

  it('the global bucket limits everyone together', async () => {
    const gw = await startGateway({ rateLimit: { perClient: { burst: 100, perSecond: 100 }, global: { burst: 2, perSecond: 0.01 } } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(`${gw.url}${RECEIPTS_PATH}/rcpt_${'1'.repeat(32)}`)).status);
      expect(statuses).toEqual([404, 404, 429, 429]);
    } finally {
      await gw.stop();
    }
  });
});

describe('gateway: storage failure', () => {
  it('503 with Retry-After when the store fails, and no receipt', async () => {
    const gw = await startGateway({ store: failingStore });
    try {
      const r = await postJson(gw.url + SUBMIT_PATH, text(propagation('Pointed readers to the verification paths.')));
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('7');
      expect(r.body.error).toMatchObject({ code: 'storage_unavailable', retry_after_seconds: 7 });
      expect(r.body.receipt).toBeUndefined();
      expect((await call(gw.url + '/healthz')).status).toBe(503);
      expect((await call(`${gw.url}${RECEIPTS_PATH}/rcpt_${'2'.repeat(32)}`)).status).toBe(503);
      // Preflight does not touch storage.
      expect((await postJson(gw.url + PREFLIGHT_PATH, text(propagation('Pointed readers to the verification paths.')))).status).toBe(200);
    } finally {
      await gw.stop();
    }
  });
});
