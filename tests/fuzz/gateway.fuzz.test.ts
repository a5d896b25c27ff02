/**
 * Fuzzing the intake gateway over HTTP: arbitrary bytes, JSON and mutated valid submissions POSTed to preflight and
 * submit, and arbitrary methods, paths and content types. Every answer is JSON; errors are the one ErrorEnvelope;
 * nothing is a 500 (a 5xx is only 503 storage_unavailable); preflight and submit agree with the core's
 * validateSubmissionText; and the store holds exactly the submissions that got a 2xx submit answer, each valid.
 * Runs: FUZZ_RUNS (see arbitraries.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSubmission,
  isRecordType,
  PREFLIGHT_PATH,
  RECEIPTS_PATH,
  RECORD_TYPES,
  serializeSubmission,
  SUBMIT_PATH,
  validateSubmissionText,
  type JsonObject,
  type RecordType,
  type Submission,
} from '../../src/core/record-chain/index.ts';
import { CLIENT, KEYS, record, submission } from '../record-chain/helpers.ts';
import { startGateway, type RunningGateway } from '../gateway/helpers.ts';
import { ArchiveIndex } from '../../src/gateway/archive-index.ts';
import { gatewayDescription } from '../../src/gateway/openapi-document.ts';
import { siteConfig } from '../../src/core/config.ts';
import {
  arbitraryBytes,
  arbitraryJsonText,
  expectComplete,
  fuzzParameters,
  fuzzTimeout,
  keysOf,
  mutate,
  mutateValue,
  mutationArbitrary,
  stringsOf,
  tokenSoup,
  utf8,
} from './arbitraries.ts';

const BASES = RECORD_TYPES.map((type) => ({ type, record: record(type), submission: submission(type) }));
const KEY_NAMES = [...new Set(BASES.flatMap((b) => keysOf(b.submission)))];
const VOCABULARY = [...new Set([...BASES.flatMap((b) => stringsOf(b.record)), ...RECORD_TYPES])];

const RUNS = 200;
/** A run is one or two local HTTP requests (and at most one fsync'd insert): a few ms; generous for slow CI. */
const TIMEOUT = fuzzTimeout(RUNS, 60);

// ---------------------------------------------------------------------------------------------------------------
// Requests

interface FuzzRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Uint8Array | undefined;
  /** Send without Content-Length (chunked). */
  chunked: boolean;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

function send(base: string, r: FuzzRequest): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (r.contentType !== undefined) headers['content-type'] = r.contentType;
    if (r.body && !r.chunked) headers['content-length'] = String(r.body.byteLength);
    if (r.body && r.chunked) headers['transfer-encoding'] = 'chunked';
    const req = request({ agent, host: url.hostname, port: url.port, method: r.method, path: r.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (r.body) req.end(r.body);
    else req.end();
  });
}

/** A well-formed submission request: POST, application/json, to preflight or submit. */
function post(path: string, body: Uint8Array): FuzzRequest {
  return { method: 'POST', path, contentType: 'application/json', body, chunked: false };
}

const endpoint = fc.constantFrom(PREFLIGHT_PATH, SUBMIT_PATH);

/** A valid base submission mutated anywhere (mostly invalid: the proof no longer matches). */
const mutatedSubmission = fc
  .tuple(fc.constantFrom(...BASES), mutationArbitrary(KEY_NAMES, VOCABULARY))
  .map(([base, mutation]) => mutate(base.submission, mutation));

/** The record of a valid base mutated and signed again: the proof holds, so only the content is judged; some stay valid. */
const resignedSubmission = fc
  .tuple(fc.constantFrom(...BASES), mutationArbitrary(keysOf(BASES.map((b) => b.record)), VOCABULARY), fc.constantFrom('compact', 'builder'))
  .map(([base, mutation, layout]) => {
    const changed = mutateValue(base.record, mutation.value);
    const rec = changed !== null && typeof changed === 'object' && !Array.isArray(changed) ? (changed as JsonObject) : base.record;
    let sub: Submission;
    try {
      sub = buildSubmission(base.type, rec, KEYS, CLIENT);
    } catch {
      // no canonical form to sign (an unpaired surrogate): sent with the base's proof, which no longer matches
      sub = { ...base.submission, record: rec };
    }
    return utf8(layout === 'compact' ? JSON.stringify(sub) : serializeSubmission(sub));
  });

/** A valid submission with fresh content (a new identity each time), so that submit stores new rows. */
const freshValidSubmission = fc
  .tuple(fc.constantFrom<RecordType>('propagation', 'verification'), fc.stringMatching(/^[A-Za-z0-9 ,.]{1,60}$/))
  .map(([type, words]) => utf8(serializeSubmission(submission(type, record(type, { summary: `Checked and described: ${words}.` })))));

const submissionBody = fc.oneof(
  { weight: 1, arbitrary: arbitraryBytes },
  { weight: 1, arbitrary: tokenSoup },
  { weight: 1, arbitrary: arbitraryJsonText },
  { weight: 4, arbitrary: mutatedSubmission },
  { weight: 3, arbitrary: resignedSubmission },
  { weight: 1, arbitrary: freshValidSubmission },
);

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'PURGE', 'SEARCH', 'REPORT', 'MKCOL', 'LOCK', 'QUERY'];

const pathSegment = fc.oneof(
  fc.constantFrom('record-chain', 'preflight', 'submit', 'receipts', 'gateway', 'api', 'healthz', 'agent-submit', 'gateway-keys.json',
    'agent-submit-gateway.json', '..', '.', '', '%2F', '%2e%2e', '%zz', '%00', '%E0%A4%A', '%F0%9F%98%80', 'rcpt_', `rcpt_${'0'.repeat(32)}`, `rcpt_${'f'.repeat(32)}`),
  fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@%-]{0,20}$/),
);
const requestPath = fc.oneof(
  fc.constantFrom(PREFLIGHT_PATH, SUBMIT_PATH, `${RECEIPTS_PATH}/`, '/healthz', '/api/gateway-keys.json', '/gateway/preflight', '/agent-submit', '/', '*',
    `http://elsewhere.example${SUBMIT_PATH}`, `${SUBMIT_PATH}?x=1`, `${PREFLIGHT_PATH}#frag`, `${SUBMIT_PATH}/`, `/RECORD-CHAIN/SUBMIT`, `//${SUBMIT_PATH}`),
  fc.tuple(fc.array(pathSegment, { maxLength: 5 }), fc.option(fc.stringMatching(/^[A-Za-z0-9=&%+]{0,20}$/), { nil: undefined })).map(
    ([segments, query]) => '/' + segments.join('/') + (query !== undefined ? `?${query}` : ''),
  ),
);

const contentType = fc.oneof(
  fc.constantFrom(undefined, '', 'application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"', 'application/json;charset=UTF8',
    'application/json; charset=latin1', 'application/json;;', 'application/json; charset=', 'application/json, text/plain', 'application/jsonp',
    'application/ld+json', 'text/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ';', '*/*'),
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
);

/** Any request: wild method, path and content type, and a body or none. */
const wildRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  method: fc.constantFrom(...METHODS),
  path: requestPath,
  contentType,
  body: fc.option(submissionBody, { nil: undefined }),
  chunked: fc.boolean(),
});

/** Mostly well-formed submission requests (they reach the judging and the store), sometimes anything. */
const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(endpoint, submissionBody, fc.boolean()).map(([path, body, chunked]) => ({ ...post(path, body), chunked })) },
  { weight: 1, arbitrary: fc.tuple(endpoint, submissionBody, contentType).map(([path, body, type]) => ({ ...post(path, body), contentType: type })) },
  { weight: 3, arbitrary: wildRequest },
);

// ---------------------------------------------------------------------------------------------------------------
// Checks

/**
 * The fields an error may carry: those of the published description's ErrorEnvelope (/api/gateway-openapi.json), not
 * a list of the test's own (which lacked existing_submission_sha256 and claim_gate, so the fuzz failed whenever it
 * sent a second guardian application for a key).
 */
const ENVELOPE_FIELDS = Object.keys(
  (gatewayDescription(siteConfig({})) as { components: { schemas: { ErrorEnvelope: { properties: { error: { properties: object } } } } } }).components.schemas.ErrorEnvelope
    .properties.error.properties,
);

/** An answer as the contract says: JSON (unless HEAD), never a 500, errors in the one envelope. Returns the body. */
function expectWellFormed(r: FuzzRequest, a: RawAnswer): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const label = `${r.method} ${r.path} → ${a.status} ${a.text.slice(0, 300)}`;
  expect(String(a.headers['content-type']), label).toMatch(/^application\/json\b/);
  if (r.method === 'HEAD') {
    expect(a.status, label).toBeLessThan(500);
    return undefined;
  }
  let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(() => (body = JSON.parse(a.text)), label).not.toThrow();
  if (a.status >= 500) {
    // the one 5xx the contract allows: the store did not answer, nothing was stored
    expect([a.status, body?.error?.code], label).toEqual([503, 'storage_unavailable']);
  }
  if (a.status >= 400) {
    expect(Object.keys(body), label).toEqual(['error']);
    const e = body.error;
    for (const k of Object.keys(e)) expect(ENVELOPE_FIELDS, label).toContain(k);
    expect(e.status, label).toBe(a.status);
    expect(e.code, label).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(typeof e.message === 'string' && e.message.length > 0, label).toBe(true);
    if (e.diagnostics !== undefined) {
      expect(Array.isArray(e.diagnostics) && e.diagnostics.length > 0, label).toBe(true);
      for (const d of e.diagnostics) expectComplete(d);
    }
    if (a.status === 405) expect(a.headers.allow, label).toBeTruthy();
  }
  return body;
}

/** The path a request target names, as HTTP reads it: "//x" is a path; an absolute URL names its path. */
function targetPath(target: string): string {
  if (target.startsWith('/')) return new URL(`http://gateway.invalid${target}`).pathname;
  return URL.canParse(target) ? new URL(target).pathname : target;
}

/** The record types the gateway also checks against the archive, and those checks' rule ids (docs/guardians.md 2). */
const ARCHIVE_BOUND: readonly string[] = ['guardian_application', 'guardian_retirement', 'classification_update'];
const ARCHIVE_RULES: readonly string[] = ['chain/guardian-key-taken', 'chain/guardian-not-registered', 'chain/classification-target'];

/** submission_sha256 → receipt id of every 2xx submit answer. */
type Acknowledged = Map<string, string>;

function isSubmissionRequest(r: FuzzRequest): boolean {
  const path = targetPath(r.path);
  return r.method === 'POST' && (path === PREFLIGHT_PATH || path === SUBMIT_PATH) && r.contentType === 'application/json' && r.body !== undefined;
}

async function exercise(gw: RunningGateway, r: FuzzRequest, acknowledged: Acknowledged): Promise<void> {
  const a = await send(gw.url, r);
  const body = expectWellFormed(r, a);
  const path = targetPath(r.path);
  const label = `${r.method} ${r.path} → ${a.status} ${a.text.slice(0, 300)}`;

  if (a.status >= 200 && a.status < 300 && path === SUBMIT_PATH) {
    expect(r.method, label).toBe('POST');
    expect([200, 202], label).toContain(a.status);
    expect(body.duplicate, label).toBe(a.status === 200);
    const sha = body.receipt.submission_sha256 as string;
    if (acknowledged.has(sha)) expect(body.receipt.receipt_id, label).toBe(acknowledged.get(sha));
    else acknowledged.set(sha, body.receipt.receipt_id as string);
  }
  if (!isSubmissionRequest(r)) return;

  // A well-formed request: the gateway's verdict is the core's, and for the three record types bound to the archive
  // (docs/guardians.md section 2) also the archive's: those checks may only add their own refusals.
  const core = validateSubmissionText(r.body!);
  const malformed = core.diagnostics.some((d) => d.rule.startsWith('json/') && d.rule !== 'json/not-object');
  const archiveRefused = (diagnostics: Array<{ rule: string; severity: string }> = []) =>
    diagnostics.some((d) => d.severity === 'error' && ARCHIVE_RULES.includes(d.rule));
  if (path === PREFLIGHT_PATH) {
    if (malformed) return expect([a.status, body.error.code], label).toEqual([400, 'invalid_json']);
    expect(a.status, label).toBe(200);
    expect(Object.keys(body).sort(), label).toEqual(['diagnostics', 'intake_only', 'record_type', 'submission_sha256', 'valid']);
    expect(body.valid, label).toBe(core.valid && !archiveRefused(body.diagnostics));
    if (!core.valid || !ARCHIVE_BOUND.includes(core.recordType!)) expect(archiveRefused(body.diagnostics), label).toBe(false);
    expect(body.valid, label).toBe(!body.diagnostics.some((d: { severity: string }) => d.severity === 'error'));
    expect(body.submission_sha256, label).toBe(core.submissionSha256 ?? null);
    expect(body.record_type, label).toBe(core.recordType ?? null);
    expect(body.intake_only, label).toBe(true);
    for (const d of body.diagnostics) expectComplete(d, Buffer.from(r.body!).toString('utf8'));
  } else if (core.valid && ARCHIVE_BOUND.includes(core.recordType!) && a.status >= 400) {
    // Refused by the archive checks alone: a key already applied here (409), or a target the index does not list.
    if (a.status === 409) expect(body.error.code, label).toBe('guardian_key_taken');
    else expect([a.status, body.error.code, archiveRefused(body.error.diagnostics)], label).toEqual([422, 'invalid_submission', true]);
  } else if (core.valid) {
    expect([200, 202], label).toContain(a.status);
    expect(body.receipt.submission_sha256, label).toBe(core.submissionSha256);
    expect(body.receipt.record_type, label).toBe(core.recordType);
  } else {
    expect([a.status, body.error.code], label).toEqual(malformed ? [400, 'invalid_json'] : [422, 'invalid_submission']);
  }
}

/** The store holds exactly the acknowledged submissions, and each one is valid by the core. */
async function expectStoreSound(gw: RunningGateway, acknowledged: Acknowledged): Promise<void> {
  const rows = await gw.store.list();
  expect(new Map(rows.map((row) => [row.submissionSha256, row.receiptId]))).toEqual(acknowledged);
  for (const row of rows) {
    const check = validateSubmissionText(row.submissionText);
    expect(check.valid, row.submissionText).toBe(true);
    expect(check.submissionSha256).toBe(row.submissionSha256);
    expect(isRecordType(row.recordType) && check.recordType === row.recordType).toBe(true);
    expect(row.receipt.submission_sha256).toBe(row.submissionSha256);
  }
}

describe('fuzz: the intake gateway', () => {
  let gw: RunningGateway;
  let siteDir = '';
  beforeAll(async () => {
    // An archive whose public index lists no record: the archive checks answer, never 503 for an unreadable index.
    const site = mkdtempSync(join(tmpdir(), 'fuzz-site-'));
    writeFileSync(join(site, 'index.json'), JSON.stringify({ records: [] }));
    gw = await startGateway({ archiveIndex: new ArchiveIndex(join(site, 'index.json')) });
    siteDir = site;
  });
  afterAll(async () => {
    rmSync(siteDir, { recursive: true, force: true });
    agent.destroy();
    await gw.stop();
  });

  it('the bases are valid submissions', () => {
    for (const b of BASES) expect(validateSubmissionText(serializeSubmission(b.submission)).valid).toBe(true);
  });

  it(
    'submission bodies (bytes, JSON, mutated and re-signed submissions) and wild requests: JSON answers, no 500, the core verdict',
    async () => {
      const acknowledged: Acknowledged = new Map();
      await fc.assert(
        fc.asyncProperty(fuzzRequest, async (r) => {
          await exercise(gw, r, acknowledged);
        }),
        fuzzParameters(RUNS),
      );
      await expectStoreSound(gw, acknowledged);
    },
    TIMEOUT,
  );
});
