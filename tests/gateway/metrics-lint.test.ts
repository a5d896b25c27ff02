/**
 * The gateway's /metrics passes Prometheus's own linter (`promtool check metrics`, Debian's `prometheus` package;
 * skipped with a printed notice without it, `.ci/run` installs it), after answers of every kind have been counted
 * (202, 200, 429, 422, 503 storage_unavailable, a disk-full store). And the fault metrics an operator alerts on:
 * gateway_store_up falls to 0 when the store fails and returns to 1 by itself; a disk-full failure is counted in
 * gateway_store_disk_full_errors_total.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PREFLIGHT_PATH, READY_PATH, serializeSubmission, SUBMIT_PATH } from '../../src/core/record-chain/index.ts';
import { GatewayMetrics, isDiskFull } from '../../src/gateway/metrics.ts';
import { SqliteSubmissionStore, StorageError, type SubmissionStore } from '../../src/gateway/store.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { call, postJson, sample, startGateway } from './helpers.ts';

const PROMTOOL = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
const PROMTOOL_MISSING = 'promtool test SKIPPED: no `promtool` on PATH (install Debian\'s prometheus package; .ci/run installs it)';
if (!PROMTOOL) console.warn(PROMTOOL_MISSING);


const text = (summary: string) => serializeSubmission(submission('propagation', record('propagation', { summary })));

/** A real SQLite store whose calls can be made to fail the way a full disk fails them. */
function faultyStore(dir: string): SubmissionStore & { fault: string | undefined } {
  const inner = new SqliteSubmissionStore(dir);
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      store.fault ? Promise.reject(new StorageError(store.fault)) : fn(...args);
  const store = {
    fault: undefined as string | undefined,
    putIfAbsent: guard(inner.putIfAbsent.bind(inner)),
    get: guard(inner.get.bind(inner)),
    getBySubmissionSha256: guard(inner.getBySubmissionSha256.bind(inner)),
    findGuardianApplication: guard(inner.findGuardianApplication.bind(inner)),
    list: guard(inner.list.bind(inner)),
    decide: guard(inner.decide.bind(inner)),
    countByStatus: guard(inner.countByStatus.bind(inner)),
    ping: guard(inner.ping.bind(inner)),
    close: inner.close.bind(inner),
  };
  return store;
}

describe('/metrics', () => {
  it.skipIf(!PROMTOOL)('passes `promtool check metrics` after answers of every kind, the default process metrics included', async () => {
    const metrics = new GatewayMetrics();
    let faulty: ReturnType<typeof faultyStore> | undefined;
    const gw = await startGateway({
      metrics,
      metricsPath: '/metrics',
      readinessCacheMs: 0,
      store: (dir) => (faulty = faultyStore(dir)),
      rateLimit: { perClient: { burst: 4, perSecond: 0 }, global: { burst: 100, perSecond: 100 } },
    });
    try {
      expect((await postJson(gw.url + SUBMIT_PATH, text('linted'))).status).toBe(202);
      expect((await postJson(gw.url + SUBMIT_PATH, text('linted'))).status).toBe(200);
      expect((await postJson(gw.url + PREFLIGHT_PATH, '{"a":1}')).status).toBe(200);
      faulty!.fault = 'storing the submission: database or disk is full';
      expect((await postJson(gw.url + SUBMIT_PATH, text('no room'))).status).toBe(503);
      expect((await postJson(gw.url + SUBMIT_PATH, text('limited'))).status).toBe(429);
      const m = (await call(gw.url + '/metrics')).body as string;
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: m, encoding: 'utf8', timeout: 30_000 });
      expect(`${lint.stdout}${lint.stderr}`.trim(), 'promtool check metrics').toBe('');
      expect(lint.status).toBe(0);
      // The failing case: promtool does catch the names it complains of (the check can fail).
      const bad = spawnSync('promtool', ['check', 'metrics'], { input: '# HELP x_total a gauge\n# TYPE x_total gauge\nx_total 1\n', encoding: 'utf8', timeout: 30_000 });
      expect(bad.status).not.toBe(0);
      expect(bad.stdout + bad.stderr).toContain('non-counter metrics should not have "_total" suffix');
      expect(m).not.toMatch(/^gateway_nodejs_active_handles_total/m);
      expect(sample(m, 'gateway_nodejs_active_handles', {})).toBeGreaterThan(0);
    } finally {
      await gw.stop();
    }
  }, 30_000);

  it('gateway_store_up falls to 0 while the store fails and returns to 1 by itself; a full disk is counted apart', async () => {
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    expect(sample(await metrics.text(), 'gateway_store_up')).toBe(0); // not open yet
    let faulty: ReturnType<typeof faultyStore> | undefined;
    const gw = await startGateway({ metrics, readinessCacheMs: 0, store: (dir) => (faulty = faultyStore(dir)) });
    try {
      expect((await call(gw.url + READY_PATH)).status).toBe(200);
      let m = await metrics.text();
      expect([sample(m, 'gateway_store_up'), sample(m, 'gateway_store_disk_full_errors_total')]).toEqual([1, 0]);

      faulty!.fault = 'pinging the store: connect ECONNREFUSED 127.0.0.1:5432';
      expect((await call(gw.url + READY_PATH)).status).toBe(503);
      m = await metrics.text();
      expect([sample(m, 'gateway_store_up'), sample(m, 'gateway_store_disk_full_errors_total')]).toEqual([0, 0]);

      faulty!.fault = 'storing the submission: database or disk is full';
      const full = await postJson(gw.url + SUBMIT_PATH, text('disk full'));
      expect([full.status, full.body.error.code, full.headers.get('retry-after')]).toEqual([503, 'storage_unavailable', '7']);
      expect(full.body.error.message).toContain('database or disk is full');
      m = await metrics.text();
      expect([sample(m, 'gateway_store_up'), sample(m, 'gateway_store_disk_full_errors_total')]).toEqual([0, 1]);

      faulty!.fault = undefined;
      expect((await call(gw.url + READY_PATH)).status).toBe(200);
      expect(sample(await metrics.text(), 'gateway_store_up')).toBe(1);
    } finally {
      await gw.stop();
    }
  });

  it('isDiskFull knows the words SQLite, PostgreSQL and Node use', () => {
    expect(isDiskFull(new StorageError('storing the submission: database or disk is full'))).toBe(true);
    expect(isDiskFull(new StorageError('storing the submission: could not extend file "base/16384/16385": No space left on device'))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe(true);
    expect(isDiskFull(new StorageError('pinging the store: connect ECONNREFUSED 127.0.0.1:5432'))).toBe(false);
    expect(isDiskFull(new StorageError('disk I/O error'))).toBe(false);
  });
});
