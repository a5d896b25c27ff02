/**
 * Observable (issue 15): a request id on every answer and in every error envelope, one JSON log line per request,
 * and Prometheus metrics (prom-client) on a path of the gateway's port or on a listener of their own.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PREFLIGHT_PATH, RECEIPTS_PATH, serializeSubmission, SUBMIT_PATH } from '../../src/core/record-chain/index.ts';
import { parseTrustedProxies } from '../../src/gateway/client-address.ts';
import { ConfigError, gatewaySettings, metricsSetting } from '../../src/gateway/config.ts';
import type { Logger, LogFields } from '../../src/gateway/log.ts';
import { GatewayMetrics, metricsServer } from '../../src/gateway/metrics.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { spawnGateway } from './child-gateway.ts';
import { call, failingStore, postJson, sample, startGateway } from './helpers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function memoryLogger(): Logger & { lines: (LogFields & { level: string; msg: string })[] } {
  const lines: (LogFields & { level: string; msg: string })[] = [];
  return { lines, log: (level, msg, fields = {}) => void lines.push({ level, msg, ...fields }) };
}


const valid = () => serializeSubmission(submission('echo', record('echo')));
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('request ids and the request log', () => {
  it('every answer has an X-Request-Id; error envelopes carry the same id; one log line per request', async () => {
    const logger = memoryLogger();
    const gw = await startGateway({ logger });
    try {
      const ok = await postJson(gw.url + PREFLIGHT_PATH, valid());
      const bad = await postJson(gw.url + SUBMIT_PATH, '{"a": 1, "a": 2}');
      const missing = await call(`${gw.url}${RECEIPTS_PATH}/rcpt_${'0'.repeat(32)}`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-request-id')).toMatch(UUID);
      expect([bad.status, bad.body.error.code, bad.body.error.request_id]).toEqual([400, 'invalid_json', bad.headers.get('x-request-id')]);
      expect([missing.status, missing.body.error.request_id]).toEqual([404, missing.headers.get('x-request-id')]);
      expect(new Set([ok, bad, missing].map((r) => r.headers.get('x-request-id'))).size).toBe(3);
      // The envelope keeps its shape (status, code, message first); request_id is one more optional field.
      expect(Object.keys(bad.body.error).slice(0, 3)).toEqual(['status', 'code', 'message']);
      await settle();
      const requests = logger.lines.filter((l) => l.msg === 'request');
      expect(requests).toHaveLength(3);
      expect(requests[1]).toMatchObject({ level: 'info', request_id: bad.body.error.request_id, method: 'POST', route: SUBMIT_PATH, status: 400, error_code: 'invalid_json', client: '127.0.0.1' });
      expect(requests[2]).toMatchObject({ route: `${RECEIPTS_PATH}/{receipt_id}`, status: 404, error_code: 'not_found' });
      expect(typeof requests[0]!.duration_ms).toBe('number');
    } finally {
      await gw.stop();
    }
  });

  it('an incoming X-Request-Id is kept only from a trusted proxy', async () => {
    const untrusted = await startGateway({ clientAddress: { trustedProxies: parseTrustedProxies('10.0.0.0/8'), header: 'x-forwarded-for' } });
    const trusted = await startGateway({ clientAddress: { trustedProxies: parseTrustedProxies('127.0.0.1'), header: 'x-forwarded-for' } });
    try {
      const headers = { 'x-request-id': 'edge-1234567890abcdef' };
      expect((await call(untrusted.url + '/nowhere', { headers })).body.error.request_id).toMatch(UUID);
      expect((await call(trusted.url + '/nowhere', { headers })).body.error.request_id).toBe('edge-1234567890abcdef');
      // Not an id (spaces, too short): a new one.
      expect((await call(trusted.url + '/nowhere', { headers: { 'x-request-id': 'a b' } })).body.error.request_id).toMatch(UUID);
    } finally {
      await untrusted.stop();
      await trusted.stop();
    }
  });
});

describe('metrics', () => {
  it('GET /metrics on the gateway port (when configured): requests, latency, rejections, submissions, store', async () => {
    const metrics = new GatewayMetrics();
    const gw = await startGateway({ metrics, metricsPath: '/metrics', rateLimit: { perClient: { burst: 3, perSecond: 0 }, global: { burst: 100, perSecond: 100 } } });
    try {
      const text = valid();
      expect((await postJson(gw.url + SUBMIT_PATH, text)).status).toBe(202);
      expect((await postJson(gw.url + SUBMIT_PATH, text)).status).toBe(200);
      expect((await postJson(gw.url + PREFLIGHT_PATH, text)).status).toBe(200);
      expect((await postJson(gw.url + PREFLIGHT_PATH, text)).status).toBe(429);
      await settle();
      const res = await call(gw.url + '/metrics');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const m = res.body as string;
      expect(sample(m, 'gateway_http_requests_total', { route: SUBMIT_PATH, method: 'POST', status: '202' })).toBe(1);
      expect(sample(m, 'gateway_http_requests_total', { route: SUBMIT_PATH, method: 'POST', status: '200' })).toBe(1);
      expect(sample(m, 'gateway_http_requests_total', { route: PREFLIGHT_PATH, method: 'POST', status: '429' })).toBe(1);
      expect(sample(m, 'gateway_http_request_duration_seconds_count', { route: SUBMIT_PATH })).toBe(2);
      expect(sample(m, 'gateway_rejections_total', { reason: 'rate_limited' })).toBe(1);
      expect(sample(m, 'gateway_submissions_total', { result: 'new' })).toBe(1);
      expect(sample(m, 'gateway_submissions_total', { result: 'duplicate' })).toBe(1);
      expect(sample(m, 'gateway_store_operation_duration_seconds_count', { operation: 'putIfAbsent' })).toBe(1);
      expect(sample(m, 'gateway_stored_submissions', { status: 'pending' })).toBe(1);
      // The scrape itself is in flight while it is answered.
      expect(sample(m, 'gateway_http_requests_in_flight')).toBe(1);
      expect(sample(m, 'gateway_process_resident_memory_bytes')).toBeGreaterThan(0);
      // Metrics are not rate limited like intake, and answer GET only.
      expect((await call(gw.url + '/metrics', { method: 'POST' })).status).toBe(405);
    } finally {
      await gw.stop();
    }
  });

  it('off the public port by default: /metrics is a 404 there', async () => {
    const gw = await startGateway({ metrics: new GatewayMetrics({ defaultMetrics: false }) });
    try {
      expect((await call(gw.url + '/metrics')).status).toBe(404);
    } finally {
      await gw.stop();
    }
  });

  it('store failures are counted by operation', async () => {
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    const gw = await startGateway({ store: failingStore, metrics });
    try {
      expect((await postJson(gw.url + SUBMIT_PATH, valid())).status).toBe(503);
      await settle();
      const m = await metrics.text();
      expect(sample(m, 'gateway_store_errors_total', { operation: 'get' })).toBe(1);
      expect(sample(m, 'gateway_rejections_total', { reason: 'storage_unavailable' })).toBe(1);
      expect(sample(m, 'gateway_stored_submissions', { status: 'pending' })).toBeUndefined();
    } finally {
      await gw.stop();
    }
  });

  it('a listener of its own serves /metrics only', async () => {
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    metrics.requests.inc({ route: '/healthz', method: 'GET', status: '200' });
    const server = metricsServer(metrics).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const res = await call(url + '/metrics');
      expect(sample(res.body, 'gateway_http_requests_total', { route: '/healthz' })).toBe(1);
      expect((await call(url + '/record-chain/submit')).status).toBe(404);
    } finally {
      server.close();
    }
  });

  it('npm run gateway with GATEWAY_METRICS=HOST:PORT: metrics on that listener, JSON log lines on stdout', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const dir = mkdtempSync(join(tmpdir(), 'gateway-metrics-'));
    const child = spawnGateway(dir, { GATEWAY_METRICS: `127.0.0.1:${port}` });
    try {
      const url = await child.ready;
      expect((await postJson(url + PREFLIGHT_PATH, valid())).status).toBe(200);
      expect((await call(url + '/metrics')).status).toBe(404);
      const m = (await call(`http://127.0.0.1:${port}/metrics`)).body as string;
      expect(sample(m, 'gateway_http_requests_total', { route: PREFLIGHT_PATH, status: '200' })).toBe(1);
      await settle();
      const lines = child.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ level: 'info', msg: 'listening', metrics: `http://127.0.0.1:${port}/metrics` });
      expect(lines.find((l) => l.msg === 'request')).toMatchObject({ route: PREFLIGHT_PATH, status: 200, client: '127.0.0.1' });
    } finally {
      await child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('GATEWAY_METRICS: off by default, HOST:PORT or /PATH, anything else refused', () => {
    expect(gatewaySettings({}).metrics).toEqual({ kind: 'off' });
    expect(metricsSetting('127.0.0.1:9464')).toEqual({ kind: 'listener', host: '127.0.0.1', port: 9464 });
    expect(metricsSetting('9464')).toEqual({ kind: 'listener', host: '127.0.0.1', port: 9464 });
    expect(metricsSetting('[::1]:9464')).toEqual({ kind: 'listener', host: '::1', port: 9464 });
    expect(metricsSetting('/metrics')).toEqual({ kind: 'path', path: '/metrics' });
    for (const bad of ['metrics', '127.0.0.1:99999', '/a b', 'host:']) expect(() => metricsSetting(bad), bad).toThrow(ConfigError);
    expect(() => gatewaySettings({ GATEWAY_LOG: 'yaml' })).toThrow(/json or off/);
    expect(() => gatewaySettings({ GATEWAY_DATABASE_URL: 'mysql://x' })).toThrow(/postgres/);
  });
});
