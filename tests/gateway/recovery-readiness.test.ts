/**
 * Recovery and readiness (issue 24, item 4): GET /record-chain/submissions/{submission_sha256} answers the signed
 * receipt of a submission the gateway took in (an agent whose submit timed out learns the truth without resubmitting),
 * 404 when it did not, 400 for a malformed hash; /readyz answers 503 not_ready until the store and the signing key
 * are usable and while the store does not answer (a failing, a hanging, a not-yet-open store; a stopped PostgreSQL),
 * 200 once they are, without restarting the gateway. Every server binds 127.0.0.1.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import {
  gatewayKeyEntry,
  gatewayKeyId,
  gatewayKeysDocument,
  PREFLIGHT_PATH,
  READY_PATH,
  RECEIPTS_PATH,
  serializeSubmission,
  SUBMISSIONS_PATH,
  SUBMIT_PATH,
  verifyReceipt,
} from '../../src/core/record-chain/index.ts';
import { loadOrCreateGatewayKey, type GatewayKeys } from '../../src/gateway/keys.ts';
import { silentLogger, type Logger, type LogFields } from '../../src/gateway/log.ts';
import { GatewayMetrics } from '../../src/gateway/metrics.ts';
import { createGateway, SUBMISSION_NOT_FOUND_MESSAGE, type Gateway, type GatewayOptions } from '../../src/gateway/server.ts';
import { SqliteSubmissionStore, StorageError, type SubmissionStore } from '../../src/gateway/store.ts';
import { PostgresSubmissionStore } from '../../src/gateway/stores/postgres.ts';
import { POSTGRES_MISSING } from '../../scripts/lib/postgres-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { spawnGateway } from './child-gateway.ts';
import { call, failingStore, postgresForThisFile, postJson, SITE, startGateway, type RunningGateway } from './helpers.ts';

const propagation = (summary: string) => serializeSubmission(submission('propagation', record('propagation', { summary })));

/** Gateways made with createGateway directly (a store that is still opening, other keys); closed after the file. */
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

async function gatewayOn(options: Partial<GatewayOptions> & Pick<GatewayOptions, 'store'>): Promise<{ url: string; gateway: Gateway }> {
  const keys = options.keys ?? loadOrCreateGatewayKey(tempDir('gateway-ready-keys-'));
  const gateway = createGateway({ rateLimit: false, site: SITE, logger: silentLogger, readinessCacheMs: 0, ...options, keys });
  const port = await gateway.listen(0, '127.0.0.1');
  closers.push(() => gateway.close());
  return { url: `http://127.0.0.1:${port}`, gateway };
}

/** A SQLite store whose ping (or every call) can be made to fail, and which counts its pings. */
function switchableStore(dir: string): SubmissionStore & { down: boolean; hang: boolean; pings: number } {
  const inner = new SqliteSubmissionStore(dir);
  const store = {
    down: false,
    hang: false,
    pings: 0,
    putIfAbsent: inner.putIfAbsent.bind(inner),
    get: inner.get.bind(inner),
    getBySubmissionSha256: inner.getBySubmissionSha256.bind(inner),
    findGuardianApplication: inner.findGuardianApplication.bind(inner),
    list: inner.list.bind(inner),
    decide: inner.decide.bind(inner),
    close: inner.close.bind(inner),
    ping: () => {
      store.pings++;
      if (store.hang) return new Promise<void>(() => undefined);
      return store.down ? Promise.reject(new StorageError('pinging the store: database is locked')) : inner.ping();
    },
  };
  return store;
}

/** Asks `url` until `until(status)` or the deadline; answers the last answer. */
async function pollUntil(url: string, until: (status: number) => boolean, deadlineMs: number) {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const answer = await call(url);
    if (until(answer.status) || Date.now() > end) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('GET /record-chain/submissions/{submission_sha256}', () => {
  let gw: RunningGateway;
  afterAll(async () => {
    await gw?.stop();
  });

  it('a submission taken in: the same signed receipt as the submit answer and the receipt route, with its current status', async () => {
    gw = await startGateway();
    const body = propagation('Pointed readers to the verification paths; my submit timed out.');
    const preflight = await postJson(gw.url + PREFLIGHT_PATH, body);
    const sha = preflight.body.submission_sha256 as string;
    // Failing case first: before the submit, the gateway says it never took it in.
    const before = await call(`${gw.url}${SUBMISSIONS_PATH}/${sha}`);
    expect([before.status, before.body.error.code, before.body.error.message]).toEqual([404, 'not_found', SUBMISSION_NOT_FOUND_MESSAGE]);
    expect(before.body.error.request_id).toBe(before.headers.get('x-request-id'));

    const submitted = await postJson(gw.url + SUBMIT_PATH, body);
    expect(submitted.status).toBe(202);
    const receipt = submitted.body.receipt;
    const found = await call(`${gw.url}${SUBMISSIONS_PATH}/${sha}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ receipt, status: 'pending' });
    const byReceipt = await call(`${gw.url}${RECEIPTS_PATH}/${receipt.receipt_id}`);
    expect(found.body).toEqual(byReceipt.body);
    expect(verifyReceipt(found.body.receipt, gw.keys.document, { submissionSha256: sha, recordType: 'propagation' })).toMatchObject({ valid: true });
    // An altered copy of that answer does not verify (the check can fail).
    expect(verifyReceipt({ ...found.body.receipt, received_at: '2020-01-01T00:00:00.000Z' }, gw.keys.document).valid).toBe(false);

    // The review's decision shows here as on the receipt route, the signed receipt unchanged.
    await gw.store.decide(receipt.receipt_id, { status: 'accepted', archivePath: '2026/echo-2026-11-24-000007.json', decidedAt: '2026-11-24T08:00:00.000Z' });
    const accepted = await call(`${gw.url}${SUBMISSIONS_PATH}/${sha}`);
    expect(accepted.body).toEqual({ receipt, status: 'accepted', archive_id: 'echo-2026-11-24-000007', decided_at: '2026-11-24T08:00:00.000Z' });
    expect(accepted.body).toEqual((await call(`${gw.url}${RECEIPTS_PATH}/${receipt.receipt_id}`)).body);
    // HEAD answers too; other methods are 405.
    expect((await call(`${gw.url}${SUBMISSIONS_PATH}/${sha}`, { method: 'HEAD' })).status).toBe(200);
    const post = await call(`${gw.url}${SUBMISSIONS_PATH}/${sha}`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('an unknown submission_sha256 is 404 not_found in plain words; a receipt id is not a submission_sha256 (400)', async () => {
    gw ??= await startGateway();
    const submitted = await postJson(gw.url + SUBMIT_PATH, propagation('Described what I checked and what I did not.'));
    const unknown = await call(`${gw.url}${SUBMISSIONS_PATH}/${'0'.repeat(64)}`);
    expect([unknown.status, unknown.body.error]).toEqual([404, { status: 404, code: 'not_found', message: SUBMISSION_NOT_FOUND_MESSAGE, request_id: unknown.headers.get('x-request-id') }]);
    // The lookup is by submission_sha256 only: the receipt id of a stored submission finds nothing here.
    const byId = await call(`${gw.url}${SUBMISSIONS_PATH}/${submitted.body.receipt.receipt_id}`);
    expect([byId.status, byId.body.error.code]).toEqual([400, 'invalid_submission_sha256']);
    const known = await call(`${gw.url}${SUBMISSIONS_PATH}/${submitted.body.receipt.submission_sha256}`);
    expect(known.status).toBe(200);
  });

  it('a path segment that is not 64 lowercase hex characters is 400 invalid_submission_sha256', async () => {
    gw ??= await startGateway();
    const sha = (await postJson(gw.url + SUBMIT_PATH, propagation('Shared the public index with a colleague.'))).body.receipt.submission_sha256 as string;
    for (const bad of [sha.toUpperCase(), sha.slice(1), `${sha}0`, `${sha.slice(1)}g`, 'x', `sha256:${sha}`, '%E0%A4%A', '..%2F..%2Fetc', 'a'.repeat(5000)]) {
      const r = await call(`${gw.url}${SUBMISSIONS_PATH}/${bad}`);
      expect([bad.slice(0, 20), r.status, r.body.error?.code], bad).toEqual([bad.slice(0, 20), 400, 'invalid_submission_sha256']);
      expect(r.body.error.message).toMatch(/is not a submission_sha256: send its 64 lowercase hex characters/);
      expect(r.body.error.message.length).toBeLessThan(300);
    }
    expect((await call(`${gw.url}${SUBMISSIONS_PATH}/${sha}`)).status).toBe(200);
    expect((await call(`${gw.url}${SUBMISSIONS_PATH}/${sha}/`)).status).toBe(400);
  });

  it('is rate-limited, request-id’d, logged and measured by route (never by hash); a failing store is 503', async () => {
    const lines: (LogFields & { msg: string })[] = [];
    const logger: Logger = { log: (_level, msg, fields = {}) => void lines.push({ msg, ...fields }) };
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    const limited = await startGateway({ logger, metrics, metricsPath: '/metrics', rateLimit: { perClient: { burst: 3, perSecond: 0 }, global: { burst: 100, perSecond: 100 } } });
    const failing = await startGateway({ store: failingStore });
    try {
      const answers = [];
      for (const sha of ['1'.repeat(64), '2'.repeat(64), '3'.repeat(64), '4'.repeat(64)]) answers.push(await call(`${limited.url}${SUBMISSIONS_PATH}/${sha}`));
      expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 429]);
      expect(answers[3]!.headers.get('retry-after')).toBeTruthy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const logged = lines.filter((l) => l.msg === 'request');
      expect(logged.map((l) => [l.route, l.status, l.request_id])).toEqual(answers.map((a) => [`${SUBMISSIONS_PATH}/{submission_sha256}`, a.status, a.headers.get('x-request-id')]));
      const text = await metrics.text();
      expect(text).toContain(`gateway_http_requests_total{route="${SUBMISSIONS_PATH}/{submission_sha256}",method="GET",status="404"} 3`);
      expect(text).not.toContain('1'.repeat(64));
      expect(text).toContain('gateway_store_operation_duration_seconds_count{operation="getBySubmissionSha256"} 3');

      const down = await call(`${failing.url}${SUBMISSIONS_PATH}/${'1'.repeat(64)}`);
      expect([down.status, down.body.error.code, down.headers.get('retry-after')]).toEqual([503, 'storage_unavailable', '7']);
    } finally {
      await limited.stop();
      await failing.stop();
    }
  });
});

describe('/readyz', () => {
  it('503 not_ready with Retry-After while the store is still opening, 200 once it is open; /healthz and the store routes 503 meanwhile', async () => {
    let open!: (store: SubmissionStore) => void;
    const opening = new Promise<SubmissionStore>((resolve) => {
      open = resolve;
    });
    const { url } = await gatewayOn({ store: opening, readinessRetryAfterSeconds: 3 });
    const early = await call(url + READY_PATH);
    expect([early.status, early.body.error.code, early.headers.get('retry-after'), early.body.error.retry_after_seconds]).toEqual([503, 'not_ready', '3', 3]);
    expect(early.body.error.message).toBe('the gateway is not ready: the store is not open yet');
    expect((await call(url + '/healthz')).status).toBe(503);
    const submit = await postJson(url + SUBMIT_PATH, propagation('Sent before the store was open; nothing may be stored.'));
    expect([submit.status, submit.body.error.code]).toEqual([503, 'storage_unavailable']);
    expect((await call(`${url}${SUBMISSIONS_PATH}/${'0'.repeat(64)}`)).status).toBe(503);

    const store = new SqliteSubmissionStore(tempDir('gateway-ready-store-'));
    closers.push(() => store.close());
    open(store);
    await new Promise((resolve) => setImmediate(resolve));
    const ready = await call(url + READY_PATH);
    expect([ready.status, ready.body]).toEqual([200, { status: 'ready', gateway_key_id: expect.stringMatching(/\S/), intake_only: true }]);
    expect((await postJson(url + SUBMIT_PATH, propagation('Sent once the store was open.'))).status).toBe(202);
    expect((await call(url + READY_PATH, { method: 'HEAD' })).status).toBe(200);
    expect((await call(url + READY_PATH, { method: 'POST' })).status).toBe(405);
  });

  it('a store that could not be opened: 503 naming why, for good', async () => {
    const { url } = await gatewayOn({ store: Promise.reject(new StorageError('cannot open the submission store at postgres://gw@127.0.0.1:1/x: ECONNREFUSED')) });
    await new Promise((resolve) => setImmediate(resolve));
    const r = await call(url + READY_PATH);
    expect([r.status, r.body.error.code]).toEqual([503, 'not_ready']);
    expect(r.body.error.message).toContain('the store could not be opened: cannot open the submission store at postgres://gw@127.0.0.1:1/x: ECONNREFUSED');
    // An open store of the same kind is ready (the check can pass).
    const ok = await gatewayOn({ store: Promise.resolve(new SqliteSubmissionStore(tempDir('gateway-ready-store-'))) });
    await new Promise((resolve) => setImmediate(resolve));
    expect((await call(ok.url + READY_PATH)).status).toBe(200);
  });

  it('follows the store’s ping: 503 while it fails, 200 again when it answers, without a restart', async () => {
    const store = switchableStore(tempDir('gateway-ready-store-'));
    closers.push(() => store.close());
    const { url } = await gatewayOn({ store });
    expect((await call(url + READY_PATH)).status).toBe(200);
    store.down = true;
    const down = await call(url + READY_PATH);
    expect([down.status, down.body.error.code, down.headers.get('retry-after')]).toEqual([503, 'not_ready', '5']);
    expect(down.body.error.message).toBe('the gateway is not ready: the store does not answer: pinging the store: database is locked');
    // Liveness is another question: the process serves, and /healthz reads the store as before (get, not ping).
    expect((await call(url + '/healthz')).status).toBe(200);
    store.down = false;
    expect((await call(url + READY_PATH)).status).toBe(200);
    // An injected store that fails everything.
    const failing = await gatewayOn({ store: failingStore() });
    expect((await call(failing.url + READY_PATH)).body.error.message).toBe('the gateway is not ready: the store does not answer: disk full');
  });

  it('a store that hangs is not ready within the timeout; one ping at a time, whatever the number of probes', async () => {
    const store = switchableStore(tempDir('gateway-ready-store-'));
    closers.push(() => store.close());
    const { url } = await gatewayOn({ store, readinessTimeoutMs: 300 });
    store.hang = true;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(url + READY_PATH)));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([503]));
    expect(answers[0]!.body.error.message).toBe('the gateway is not ready: the store did not answer within 300 ms');
    // The hanging ping is still outstanding: later probes wait on it instead of starting more.
    await call(url + READY_PATH);
    expect(store.pings).toBe(1);
  });

  it('caches its verdict for a while: a probe storm pings the store once, a later probe again', async () => {
    const store = switchableStore(tempDir('gateway-ready-store-'));
    closers.push(() => store.close());
    // A 3 s window here (the default is 1 s), so that a slow test machine stays inside it.
    const { url } = await gatewayOn({ store, readinessCacheMs: 3_000 });
    const started = Date.now();
    const storm = await Promise.all(Array.from({ length: 50 }, () => call(url + READY_PATH)));
    expect(storm.every((a) => a.status === 200)).toBe(true);
    expect(store.pings).toBe(1);
    // Within the window, a failing store is not noticed yet; after it, it is.
    store.down = true;
    expect((await call(url + READY_PATH)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    await new Promise((resolve) => setTimeout(resolve, 3_100 - (Date.now() - started)));
    expect((await call(url + READY_PATH)).status).toBe(503);
    expect(store.pings).toBe(2);
  });

  it('503 when the signing key is not usable (not active in the keys document, or not the document’s key); 200 with a usable one', async () => {
    const store = new SqliteSubmissionStore(tempDir('gateway-ready-store-'));
    closers.push(() => store.close());
    const good = loadOrCreateGatewayKey(tempDir('gateway-ready-keys-'));
    const other = generateEd25519KeyPair();
    const unlisted: GatewayKeys = { ...good, document: gatewayKeysDocument([gatewayKeyEntry(other.publicKey)]) };
    const retired: GatewayKeys = { ...good, document: { ...good.document, keys: good.document.keys.map((k) => ({ ...k, status: 'retired' as const })) } };
    // Claims the document's key id, signs with another private key: its receipts would not verify.
    const mismatched: GatewayKeys = { ...good, privateKey: other.privateKey };
    for (const [keys, why] of [
      [unlisted, `the signing key ${good.keyId} is not listed as active`],
      [retired, `the signing key ${good.keyId} is not listed as active`],
      [mismatched, `the signing key cannot sign: receipt.gateway_key_id is ${good.keyId}, but the signing key's id is ${gatewayKeyId(other.publicKey)}`],
    ] as const) {
      const { url } = await gatewayOn({ store, keys });
      const r = await call(url + READY_PATH);
      expect([r.status, r.body.error.code], why).toEqual([503, 'not_ready']);
      expect(r.body.error.message).toContain(why);
    }
    expect(gatewayKeyId(other.publicKey)).not.toBe(good.keyId);
    const { url } = await gatewayOn({ store, keys: good });
    expect((await call(url + READY_PATH)).body).toEqual({ status: 'ready', gateway_key_id: good.keyId, intake_only: true });
  });

  it('the real entry point serves /readyz and the submissions route', async () => {
    const child = spawnGateway(tempDir('gateway-ready-child-'));
    try {
      const url = await child.ready;
      expect((await call(url + READY_PATH)).status).toBe(200);
      const submitted = await postJson(url + SUBMIT_PATH, propagation('Sent to the real entry point.'));
      expect((await call(`${url}${SUBMISSIONS_PATH}/${submitted.body.receipt.submission_sha256}`)).body.receipt).toEqual(submitted.body.receipt);
      expect((await call(`${url}${SUBMISSIONS_PATH}/${'0'.repeat(64)}`)).status).toBe(404);
    } finally {
      await child.kill();
    }
  });
});

const pg = postgresForThisFile();

describe('/readyz on PostgreSQL', () => {
  it.skipIf(POSTGRES_MISSING !== undefined)(
    'turns 503 when the server is stopped (pg_ctl stop -m immediate) and 200 again once it is started, the gateway never restarted',
    async () => {
      const server = pg.server()!;
      const store = await PostgresSubmissionStore.open(await server.createDatabase(), { connectTimeoutMs: 1_000 });
      closers.push(() => store.close());
      const { url } = await gatewayOn({ store, readinessTimeoutMs: 1_000, readinessCacheMs: 1_000 });
      expect((await call(url + READY_PATH)).status).toBe(200);
      const submitted = await postJson(url + SUBMIT_PATH, propagation('Stored before the database crashed.'));
      expect(submitted.status).toBe(202);
      const sha = submitted.body.receipt.submission_sha256 as string;

      await server.pause('immediate');
      const down = await pollUntil(url + READY_PATH, (s) => s === 503, 10_000);
      expect([down.status, down.body.error?.code, down.headers.get('retry-after')]).toEqual([503, 'not_ready', '5']);
      expect(down.body.error.message).toMatch(/^the gateway is not ready: the store (does not answer|did not answer within)/);
      // Meanwhile the lookup says the store is unavailable, not that the submission is unknown.
      expect((await call(`${url}${SUBMISSIONS_PATH}/${sha}`)).status).toBe(503);

      await server.resume();
      const up = await pollUntil(url + READY_PATH, (s) => s === 200, 15_000);
      expect(up.status).toBe(200);
      const found = await call(`${url}${SUBMISSIONS_PATH}/${sha}`);
      expect(found.body).toEqual({ receipt: submitted.body.receipt, status: 'pending' });
    },
    60_000,
  );
});
