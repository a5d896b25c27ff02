/** A gateway on 127.0.0.1 (port 0) over a temporary data directory, and small HTTP helpers. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateGatewayKey, type GatewayKeys } from '../../src/gateway/keys.ts';
import type { RateLimitSettings } from '../../src/gateway/rate-limit.ts';
import { silentLogger } from '../../src/gateway/log.ts';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/server.ts';
import { SqliteSubmissionStore, StorageError, type SubmissionStore } from '../../src/gateway/store.ts';
import { afterAll, beforeAll } from 'vitest';
import { POSTGRES_MISSING, startPostgres, type PostgresServer } from '../../scripts/lib/postgres-server.ts';

export const SITE = { baseUrl: 'http://127.0.0.1:1', gatewayUrl: 'http://127.0.0.1:2' };

export interface RunningGateway {
  url: string;
  dataDir: string;
  keys: GatewayKeys;
  store: SubmissionStore;
  gateway: Gateway;
  stop: () => Promise<void>;
}

export async function startGateway(
  options: { rateLimit?: RateLimitSettings | false; store?: (dataDir: string) => SubmissionStore; maxInFlight?: number } & Pick<
    GatewayOptions,
    'clientAddress' | 'logger' | 'metrics' | 'metricsPath' | 'readinessTimeoutMs' | 'readinessCacheMs' | 'archiveIndex' | 'indexRetryAfterSeconds' | 'mcp'
  > = {},
): Promise<RunningGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-test-'));
  const keys = loadOrCreateGatewayKey(dataDir);
  const opened = options.store ? options.store(dataDir) : new SqliteSubmissionStore(dataDir);
  const store = options.metrics ? options.metrics.instrument(opened) : opened;
  const { rateLimit, maxInFlight, store: _, ...observability } = options;
  const gateway = createGateway({ store, keys, rateLimit: rateLimit ?? false, site: SITE, storageRetryAfterSeconds: 7, ...(maxInFlight ? { maxInFlight } : {}), logger: silentLogger, ...observability });
  const port = await gateway.listen(0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    keys,
    store,
    gateway,
    stop: async () => {
      await gateway.close();
      await store.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, headers: res.headers, body };
}

export function postJson(url: string, body: string | Uint8Array<ArrayBuffer>, contentType = 'application/json'): Promise<Answer> {
  return call(url, { method: 'POST', headers: { 'content-type': contentType }, body });
}

/** A store whose every call fails (a dead disk or database): the gateway must answer 503 storage_unavailable. */
export function failingStore(): SubmissionStore {
  const fail = () => Promise.reject(new StorageError('disk full'));
  return { putIfAbsent: fail, get: fail, getBySubmissionSha256: fail, findGuardianApplication: fail, list: fail, decide: fail, ping: fail, close: () => Promise.resolve() };
}

/**
 * A real PostgreSQL server for the test file (scripts/lib/postgres-server.ts), started before its tests and stopped
 * after; `server()` is undefined, with a printed notice, when the binaries are missing (the tests then skip).
 */
export function postgresForThisFile(): { server: () => PostgresServer | undefined } {
  let postgres: PostgresServer | undefined;
  if (POSTGRES_MISSING) console.warn(POSTGRES_MISSING);
  beforeAll(async () => {
    if (!POSTGRES_MISSING) postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.stop();
  });
  return { server: () => postgres };
}

/** The value of one sample line of a Prometheus exposition text (with these labels among its own), or undefined. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').split(',').filter(Boolean);
    if (wanted.every((w) => have.includes(w))) return Number(m[3]);
  }
  return undefined;
}
