/**
 * PostgreSQL restarted under load (issue 28, item 1): two real gateway processes (src/gateway/main.ts) on one real
 * PostgreSQL server, a steady, bounded stream of distinct submissions from a client that retries what was not
 * acknowledged; the server is killed (`pg_ctl stop -m immediate`: a crash, recovery on the next start) for a few
 * seconds and started again on the same port. Held:
 *   - while it is down, every request that needs the store (submit, the submissions lookup) answers 503
 *     storage_unavailable with Retry-After (never a 500, never a hang past a bounded time); /readyz is 503 not_ready
 *     and /healthz 503 on both instances, and gateway_store_up (/metrics) is 0 there, 1 again after;
 *   - after it is back, both instances answer 202 and /readyz 200 again by themselves (no restart), within a bound;
 *   - every receipt ever acknowledged is stored, once, with its receipt id; acknowledged = stored, counted in the
 *     database.
 * And an instance started while the database is unreachable listens not ready (/readyz 503, submit 503 with
 * Retry-After) and turns ready by itself when the database appears; one whose database does not exist stops (exit 2),
 * naming it.
 * The figures of the run are printed (`[postgres-outage] …`) for docs/faults.md. Skipped with a notice without PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { HEALTH_PATH, READY_PATH, serializeSubmission, SUBMISSIONS_PATH, SUBMIT_PATH, type Receipt } from '../../src/core/record-chain/index.ts';
import { freePort } from '../../scripts/lib/free-port.ts';
import { POSTGRES_MISSING } from '../../scripts/lib/postgres-server.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { spawnGateway, type ChildGateway } from './child-gateway.ts';
import { postgresForThisFile } from './helpers.ts';

const pg = postgresForThisFile();
const dirs: string[] = [];
const children: ChildGateway[] = [];
afterAll(async () => {
  for (const c of children) await c.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Longest any answer may take, outage or not: PostgreSQL's connect timeout in the store (5 s) and a margin. */
const ANSWER_BOUND_MS = 7_000;
const WORKERS = 4;
const MAX_SUBMISSIONS = 1_500;

interface Outcome {
  status: number;
  ms: number;
  code?: string;
  retryAfter: string | null;
  receipt?: Receipt;
  at: number;
}

async function submit(url: string, body: string): Promise<Outcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(url + SUBMIT_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(ANSWER_BOUND_MS + 3_000) });
    const json = (await res.json()) as { receipt?: Receipt; error?: { code: string } };
    return { status: res.status, ms: performance.now() - t0, retryAfter: res.headers.get('retry-after'), at: t0, ...(json.receipt ? { receipt: json.receipt } : {}), ...(json.error ? { code: json.error.code } : {}) };
  } catch (err) {
    return { status: 0, ms: performance.now() - t0, code: (err as Error).name, retryAfter: null, at: t0 };
  }
}

async function storeUp(url: string): Promise<number | undefined> {
  const text = await (await fetch(url + '/metrics', { signal: AbortSignal.timeout(ANSWER_BOUND_MS) })).text();
  const m = /^gateway_store_up (\S+)$/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

async function status(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) })).status;
  } catch {
    return 0;
  }
}

describe.skipIf(POSTGRES_MISSING !== undefined)('PostgreSQL killed and restarted under load, two instances', () => {
  it('503 with Retry-After while it is down, recovery by itself, every acknowledged receipt stored once', async () => {
    const server = pg.server()!;
    const databaseUrl = await server.createDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-outage-'));
    dirs.push(dataDir);
    const env = { GATEWAY_DATABASE_URL: databaseUrl, GATEWAY_LOG: 'off', GATEWAY_METRICS: '/metrics' };
    const a = spawnGateway(dataDir, env);
    children.push(a);
    await a.ready;
    const b = spawnGateway(dataDir, env);
    children.push(b);
    await b.ready;
    const urls = [a.url!, b.url!];

    // The client: distinct submissions, each retried (on the other instance next) until acknowledged.
    const bodies: string[] = [];
    const acknowledged = new Map<number, Receipt>();
    const outcomes: (Outcome & { instance: number })[] = [];
    let next = 0;
    const retry: number[] = [];
    let stopping = false;
    let sent = 0;
    const worker = async (w: number) => {
      while (!(stopping && retry.length === 0) && sent < MAX_SUBMISSIONS * 3) {
        let i = retry.shift();
        if (i === undefined) {
          if (stopping || next >= MAX_SUBMISSIONS) break;
          i = next++;
          bodies[i] = serializeSubmission(submission('propagation', record('propagation', { summary: `Outage load ${i}: told a colleague where the index is.` })));
        }
        const instance = (i + sent + w) % 2;
        sent++;
        const o = await submit(urls[instance]!, bodies[i]!);
        outcomes.push({ ...o, instance });
        if ((o.status === 202 || o.status === 200) && o.receipt) {
          const before = acknowledged.get(i);
          if (before) expect(o.receipt, `submission ${i}: two receipts`).toEqual(before);
          acknowledged.set(i, o.receipt);
        } else {
          retry.push(i);
          await sleep(100);
        }
        await sleep(10);
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    await sleep(1_500);
    const ackedBefore = acknowledged.size;
    expect(ackedBefore, 'the stream runs before the outage').toBeGreaterThan(10);
    const downAt = performance.now();
    await server.pause('immediate');
    const stoppedAt = performance.now();
    // While it is down: readiness and health on both instances, a few times.
    const probes: { ready: number; health: number; lookup: number; lookupRetryAfter: boolean; storeUp: number | undefined }[] = [];
    const someReceipt = [...acknowledged.values()][0]!;
    while (performance.now() - stoppedAt < 4_000) {
      for (const url of urls) {
        const lookup = await fetch(`${url}${SUBMISSIONS_PATH}/${someReceipt.submission_sha256}`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
        probes.push({
          ready: await status(url + READY_PATH),
          health: await status(url + HEALTH_PATH),
          lookup: lookup.status,
          lookupRetryAfter: lookup.headers.has('retry-after'),
          storeUp: await storeUp(url),
        });
      }
      await sleep(400);
    }
    const upAt = performance.now();
    await server.resume();
    const startedAt = performance.now();
    // Recovery: both instances ready and taking submissions again, no restart.
    const recovered: number[] = [];
    for (const [k, url] of urls.entries()) {
      for (;;) {
        if ((await status(url + READY_PATH)) === 200 && outcomes.some((o) => o.instance === k && o.at > startedAt && o.status === 202)) break;
        expect(performance.now() - startedAt, `instance ${k} did not recover`).toBeLessThan(30_000);
        await sleep(100);
      }
      recovered.push(performance.now() - startedAt);
    }
    await sleep(1_000);
    stopping = true;
    await load;
    expect(a.child.exitCode, 'instance a never restarted').toBeNull();
    expect(b.child.exitCode, 'instance b never restarted').toBeNull();

    // During the outage (from the kill to the restart): only 503 storage_unavailable with Retry-After, none slow.
    const during = outcomes.filter((o) => o.at >= stoppedAt && o.at + o.ms <= startedAt);
    expect(during.length, 'requests sent during the outage').toBeGreaterThan(5);
    for (const o of during) expect([o.status, o.code, o.retryAfter !== null], JSON.stringify(o)).toEqual([503, 'storage_unavailable', true]);
    expect(outcomes.filter((o) => o.status === 500 || o.status === 0), 'no 500, no timeout, ever').toEqual([]);
    const slowest = Math.max(...outcomes.map((o) => o.ms));
    expect(slowest).toBeLessThan(ANSWER_BOUND_MS);
    expect(probes.every((p) => p.ready === 503 && p.health === 503 && p.lookup === 503 && p.lookupRetryAfter), JSON.stringify(probes)).toBe(true);
    // The alert: gateway_store_up is 0 on both once a call has failed, and 1 again after recovery.
    expect(probes.slice(-2).map((p) => p.storeUp)).toEqual([0, 0]);
    expect([await storeUp(urls[0]!), await storeUp(urls[1]!)]).toEqual([1, 1]);

    // Every acknowledged receipt is stored once, with its id; nothing else is stored.
    expect(retry).toEqual([]);
    expect(acknowledged.size).toBe(next);
    const rows = await server.query<{ receipt_id: string; submission_sha256: string }>(databaseUrl, 'SELECT receipt_id, submission_sha256 FROM submissions');
    const byId = new Map(rows.map((r) => [r.receipt_id, r.submission_sha256]));
    for (const [i, receipt] of acknowledged) expect(byId.get(receipt.receipt_id), `submission ${i}`).toBe(receipt.submission_sha256);
    expect(new Set(rows.map((r) => r.submission_sha256)).size).toBe(rows.length);
    expect(rows.length).toBe(acknowledged.size);

    const figures = {
      submissions: next,
      requests: outcomes.length,
      outage_ms: Math.round(startedAt - downAt),
      requests_during_outage: during.length,
      answered_503_during_outage: during.filter((o) => o.status === 503).length,
      answered_503_total: outcomes.filter((o) => o.status === 503).length,
      answered_500: 0,
      slowest_answer_ms: Math.round(slowest),
      readyz_healthz_lookup_probes_during_outage: probes.length * 3,
      recovery_ms_after_start: recovered.map(Math.round),
      pg_start_ms: Math.round(startedAt - upAt),
      receipts_acknowledged: acknowledged.size,
      receipts_stored: rows.length,
    };
    console.log(`[postgres-outage] ${JSON.stringify(figures)}`);
  }, 120_000);

  it('an instance started while the database is unreachable comes up not ready (503 with Retry-After) and turns ready by itself when it appears', async () => {
    const server = pg.server()!;
    const databaseUrl = await server.createDatabase();
    await server.pause('immediate');
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-outage-start-'));
    dirs.push(dataDir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawnGateway(dataDir, { GATEWAY_DATABASE_URL: databaseUrl, GATEWAY_LOG: 'off', PORT: String(port) }, 60_000);
    children.push(child);
    let down: { ready: number; submit: Outcome } | undefined;
    try {
      // Not ready while the database is down: it listens, /readyz 503, submit 503 with Retry-After.
      for (let i = 0; i < 50 && !down; i++) {
        await sleep(100);
        const ready = await status(url + READY_PATH);
        if (ready !== 0) down = { ready, submit: await submit(url, serializeSubmission(submission('propagation', record('propagation', { summary: 'Sent before the database was up.' })))) };
      }
      expect(down?.ready, child.output()).toBe(503);
      expect([down!.submit.status, down!.submit.code, down!.submit.retryAfter !== null]).toEqual([503, 'storage_unavailable', true]);
      await sleep(1_500);
      expect(child.child.exitCode, child.output()).toBeNull();
      const host = new URL(databaseUrl).host;
      expect(child.output()).toMatch(new RegExp(`gateway: not ready: cannot open the submission store at postgres://postgres@${host.replace('.', '\\.')}/\\w+: .*ECONNREFUSED.*; trying again in`));
    } finally {
      await server.resume();
    }
    const t0 = performance.now();
    expect(await child.ready).toBe(url);
    expect(await status(url + READY_PATH)).toBe(200);
    const after = await submit(url, serializeSubmission(submission('propagation', record('propagation', { summary: 'Sent once the database was up.' }))));
    expect(after.status).toBe(202);
    console.log(`[postgres-unreachable-at-start] ${JSON.stringify({ readyz_while_down: down!.ready, submit_while_down: down!.submit.status, ready_ms_after_database_start: Math.round(performance.now() - t0) })}`);
  }, 60_000);

  it('an instance whose database does not exist stops at once (exit 2), naming it', async () => {
    const server = pg.server()!;
    const missing = (await server.createDatabase()).replace(/\/(\w+)$/, '/$1_missing');
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-outage-start-'));
    dirs.push(dataDir);
    const child = spawnGateway(dataDir, { GATEWAY_DATABASE_URL: missing, GATEWAY_LOG: 'off' });
    children.push(child);
    await expect(child.ready).rejects.toThrow(/exited \(code 2/);
    expect(child.output()).toMatch(/gateway: cannot open the submission store at postgres:\/\/postgres@[^ ]+_missing: database "\w+_missing" does not exist/);
  }, 60_000);
});
