/**
 * The gateway's Prometheus metrics (prom-client, the text exposition format), on a registry of its own so that
 * several gateways in one process (the tests) do not share counters. What to watch is in docs/gateway-operations.md.
 *
 *   gateway_http_requests_total{route,method,status}        every answer, by route template (not raw path)
 *   gateway_http_request_duration_seconds{route}            latency histogram, from the request to the last byte
 *   gateway_http_requests_in_flight                         requests being handled now (the overload limit's gauge)
 *   gateway_rejections_total{reason}                        error answers by error code (rate_limited, overloaded, …)
 *   gateway_submissions_total{result}                       submit outcomes: new, duplicate, invalid
 *   gateway_store_operation_duration_seconds{operation}     store latency by operation (putIfAbsent, get, …)
 *   gateway_store_errors_total{operation}                   store failures (each answered 503 storage_unavailable)
 *   gateway_store_up                                        1 while the store's last call succeeded, 0 after a failure
 *                                                           or before it is open (the "store unavailable" alert)
 *   gateway_store_disk_full_errors_total                    store failures for want of disk space (ENOSPC, SQLite's
 *                                                           "database or disk is full", PostgreSQL's disk_full 53100)
 *   gateway_stored_submissions{status}                      submissions in the store by review state, read at scrape
 *   plus prom-client's default process metrics (CPU, memory, event-loop lag, open handles), prefixed gateway_,
 *   less its three gauges named `…_total` (nodejs_active_handles_total, _requests_total, _resources_total): a gauge
 *   must not end in _total (`promtool check metrics`); their per-type gauges without the suffix remain, and
 *   sum(gateway_nodejs_active_handles) is the same number.
 */
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SubmissionStore } from './store.ts';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A failure for want of disk space, in the words SQLite, PostgreSQL and Node use for it. */
export function isDiskFull(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return e?.code === 'ENOSPC' || e?.code === '53100' || /ENOSPC|no space left on device|database or disk is full|disk_full|could not extend file/i.test(String(e?.message ?? ''));
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'gateway_http_requests_total', help: 'HTTP answers by route template, method and status', labelNames: ['route', 'method', 'status'] as const, registers: [this.registry] });
  readonly duration = new Histogram({ name: 'gateway_http_request_duration_seconds', help: 'Time from the request to the last byte of the answer', labelNames: ['route'] as const, buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly inFlight = new Gauge({ name: 'gateway_http_requests_in_flight', help: 'Requests being handled now', registers: [this.registry] });
  readonly rejections = new Counter({ name: 'gateway_rejections_total', help: 'Error answers by error code', labelNames: ['reason'] as const, registers: [this.registry] });
  readonly submissions = new Counter({ name: 'gateway_submissions_total', help: 'Submit outcomes: new intake (202), duplicate (200), invalid (422)', labelNames: ['result'] as const, registers: [this.registry] });
  readonly storeDuration = new Histogram({ name: 'gateway_store_operation_duration_seconds', help: 'Submission store latency by operation', labelNames: ['operation'] as const, buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly storeErrors = new Counter({ name: 'gateway_store_errors_total', help: 'Submission store failures by operation', labelNames: ['operation'] as const, registers: [this.registry] });
  readonly storeUp = new Gauge({ name: 'gateway_store_up', help: '1 while the last call to the submission store succeeded; 0 after a failure, or before the store is open', registers: [this.registry] });
  readonly diskFull = new Counter({ name: 'gateway_store_disk_full_errors_total', help: 'Submission store failures for want of disk space (ENOSPC, database or disk is full)', registers: [this.registry] });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) {
      collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
      // Gauges named like counters (promtool: "non-counter metrics should not have _total suffix"); the per-type
      // gauges gateway_nodejs_active_{handles,requests,resources}{type} carry the same numbers.
      for (const name of ['gateway_nodejs_active_handles_total', 'gateway_nodejs_active_requests_total', 'gateway_nodejs_active_resources_total']) {
        this.registry.removeSingleMetric(name);
      }
    }
    this.storeUp.set(0);
  }

  /** The store with every call timed and its failures counted; adds the stored-submissions gauge when it can count. */
  instrument(store: SubmissionStore): SubmissionStore {
    const timed = <A extends unknown[], R>(operation: string, fn: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        const end = this.storeDuration.startTimer({ operation });
        try {
          const result = await fn(...args);
          this.storeUp.set(1);
          return result;
        } catch (err) {
          this.storeErrors.inc({ operation });
          this.storeUp.set(0);
          if (isDiskFull(err)) this.diskFull.inc();
          throw err;
        } finally {
          end();
        }
      };
    // Opened: the store answered (SQLite opened its file, PostgreSQL ran its migrations).
    this.storeUp.set(1);
    const countByStatus = store.countByStatus?.bind(store);
    if (countByStatus) {
      new Gauge({
        name: 'gateway_stored_submissions',
        help: 'Submissions in the store by review state (read when scraped)',
        labelNames: ['status'] as const,
        registers: [this.registry],
        async collect() {
          // A failing store must not fail the scrape: the error counter says it.
          const counts = await timed('countByStatus', countByStatus)().catch(() => undefined);
          if (counts) for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
        },
      });
    }
    return {
      putIfAbsent: timed('putIfAbsent', store.putIfAbsent.bind(store)),
      get: timed('get', store.get.bind(store)),
      getBySubmissionSha256: timed('getBySubmissionSha256', store.getBySubmissionSha256.bind(store)),
      findGuardianApplication: timed('findGuardianApplication', store.findGuardianApplication.bind(store)),
      ping: timed('ping', store.ping.bind(store)),
      list: timed('list', store.list.bind(store)),
      decide: timed('decide', store.decide.bind(store)),
      ...(countByStatus ? { countByStatus: timed('countByStatus', countByStatus) } : {}),
      close: store.close.bind(store),
    };
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** A listener that serves only GET /metrics (GATEWAY_METRICS=host:port), apart from the public port. */
export function metricsServer(metrics: GatewayMetrics, path = '/metrics'): Server {
  return createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (url !== path || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(url === path ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end(url === path ? 'GET only\n' : `metrics are at ${path}\n`);
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${(err as Error).message}\n`),
    );
  });
}
