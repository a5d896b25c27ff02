/**
 * The gateway's settings, from the environment:
 *   HOST, PORT                  where to listen (default 127.0.0.1:8787)
 *   GATEWAY_DATA_DIR            the store and the gateway key (default .gateway-data/)
 *   GATEWAY_RATE_LIMIT          "off" turns rate limiting off
 *   GATEWAY_CLIENT_BURST, GATEWAY_CLIENT_PER_MINUTE   per-client token bucket (default 20, 60)
 *   GATEWAY_GLOBAL_BURST, GATEWAY_GLOBAL_PER_MINUTE   global token bucket (default 200, 1200)
 *   GATEWAY_MAX_IN_FLIGHT       requests handled at once; beyond, 503 overloaded (default 64)
 *   GATEWAY_DATABASE_URL        postgres://… : the shared PostgreSQL store (several instances); unset: SQLite in the data dir
 *   GATEWAY_DATABASE_POOL_SIZE  connections per instance to PostgreSQL (default 10)
 *   GATEWAY_TRUSTED_PROXIES     addresses or CIDR ranges of reverse proxies whose forwarding header is believed
 *   GATEWAY_CLIENT_ADDRESS_HEADER  x-forwarded-for (default) or forwarded (RFC 7239): the one header read from them
 *   GATEWAY_METRICS             off (default) | HOST:PORT (a separate listener) | /PATH (on the gateway's port)
 *   GATEWAY_LOG                 json (default: one JSON line per request on stdout) | off
 *   ECHO_GATEWAY_MCP            1 serves the archive's MCP server at /mcp (Streamable HTTP, stateless; default off)
 *   ECHO_GATEWAY_MCP_ALLOWED_HOSTS  host names /mcp answers besides loopback and the hosts of SITE_URL and GATEWAY_URL
 *   ECHO_GATEWAY_INDEX_URL      the public index the guardian and classification checks read (docs/guardians.md):
 *                               default <SITE_URL>/api/index.json; an http(s) URL or an absolute file path; read in
 *                               src/gateway/archive-index.ts (kept about a minute; unreadable: 503 archive_index_unavailable)
 *   SITE_URL, GATEWAY_URL       the site configuration (src/core/config.ts): receipts' readback and 410 routes
 */
import { parseTrustedProxies, type ClientAddressSettings } from './client-address.ts';
import type { RateLimitSettings } from './rate-limit.ts';

type Env = Record<string, string | undefined>;

export const DEFAULT_HOST = '127.0.0.1';

/** What a gateway started with no rate-limit settings enforces (also published in its OpenAPI description). */
export const DEFAULT_RATE_LIMIT: RateLimitSettings = {
  perClient: { burst: 20, perSecond: 1 },
  global: { burst: 200, perSecond: 20 },
};
export const DEFAULT_PORT = 8787;
export const DEFAULT_DATA_DIR = '.gateway-data';
/** Requests handled at once by default: 64 bodies of at most max_body_bytes (256 KB) is 16 MB. */
export const DEFAULT_MAX_IN_FLIGHT = 64;

export class ConfigError extends Error {}

function numberSetting(env: Env, name: string, fallback: number, { min = 0, integer = false } = {}): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) throw new ConfigError(`${name} must be a number ≥ ${min} (found "${raw}")`);
  return n;
}

export function gatewayDataDir(env: Env = process.env): string {
  return env.GATEWAY_DATA_DIR?.trim() || DEFAULT_DATA_DIR;
}

export interface GatewaySettings {
  host: string;
  port: number;
  dataDir: string;
  rateLimit: RateLimitSettings | false;
  /** Requests handled at once; one more is answered 503 overloaded (server.ts). */
  maxInFlight: number;
  /** The PostgreSQL store; undefined: SQLite in dataDir. */
  databaseUrl?: string;
  databasePoolSize?: number;
  /** Undefined: no proxy is trusted, the peer is the client. */
  clientAddress?: ClientAddressSettings;
  metrics: MetricsSetting;
  log: 'json' | 'off';
  /** The MCP endpoint at /mcp (src/gateway/mcp.ts): undefined when off. */
  mcp?: { allowedHosts: string[] };
}

export type MetricsSetting = { kind: 'off' } | { kind: 'listener'; host: string; port: number } | { kind: 'path'; path: string };

/** GATEWAY_METRICS: "off", "HOST:PORT" / "[v6]:PORT" / "PORT" (a listener apart from the public one), or "/PATH". */
export function metricsSetting(raw: string | undefined): MetricsSetting {
  const value = raw?.trim() ?? '';
  if (value === '' || ['off', '0', 'false', 'no'].includes(value.toLowerCase())) return { kind: 'off' };
  if (value.startsWith('/')) {
    if (!/^\/[A-Za-z0-9._~\/-]*$/.test(value)) throw new ConfigError(`GATEWAY_METRICS path must be a plain path like /metrics (found "${value}")`);
    return { kind: 'path', path: value };
  }
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[^:\s]+):)?(\d{1,5})$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) throw new ConfigError(`GATEWAY_METRICS must be off, HOST:PORT (e.g. 127.0.0.1:9464) or a path (e.g. /metrics) (found "${value}")`);
  return { kind: 'listener', host: m[1]?.replace(/^\[|\]$/g, '') ?? DEFAULT_HOST, port };
}

function databaseUrlSetting(env: Env): string | undefined {
  const url = env.GATEWAY_DATABASE_URL?.trim();
  if (!url) return undefined;
  if (!/^postgres(ql)?:\/\//.test(url)) throw new ConfigError('GATEWAY_DATABASE_URL must be a postgres:// or postgresql:// URL (unset it to use the SQLite file in GATEWAY_DATA_DIR)');
  return url;
}

function clientAddressSetting(env: Env): ClientAddressSettings | undefined {
  const proxies = env.GATEWAY_TRUSTED_PROXIES?.trim();
  const header = (env.GATEWAY_CLIENT_ADDRESS_HEADER?.trim() || 'x-forwarded-for').toLowerCase();
  if (header !== 'x-forwarded-for' && header !== 'forwarded') throw new ConfigError(`GATEWAY_CLIENT_ADDRESS_HEADER must be x-forwarded-for or forwarded (found "${header}")`);
  if (!proxies) return undefined;
  try {
    return { trustedProxies: parseTrustedProxies(proxies), header };
  } catch (err) {
    throw new ConfigError(`GATEWAY_TRUSTED_PROXIES: ${(err as Error).message}`);
  }
}

function logSetting(raw: string | undefined): 'json' | 'off' {
  const value = (raw?.trim() || 'json').toLowerCase();
  if (value !== 'json' && value !== 'off') throw new ConfigError(`GATEWAY_LOG must be json or off (found "${raw}")`);
  return value;
}

/** ECHO_GATEWAY_MCP=1 turns /mcp on; ECHO_GATEWAY_MCP_ALLOWED_HOSTS (comma-separated host names) widens its Host check. */
export function mcpSetting(env: Env): { mcp?: { allowedHosts: string[] } } {
  const raw = (env.ECHO_GATEWAY_MCP ?? '').trim().toLowerCase();
  if (raw === '' || ['0', 'off', 'false', 'no'].includes(raw)) return {};
  if (!['1', 'on', 'true', 'yes'].includes(raw)) throw new ConfigError(`ECHO_GATEWAY_MCP must be 1 or 0 (found "${env.ECHO_GATEWAY_MCP}")`);
  const hosts = (env.ECHO_GATEWAY_MCP_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  const bad = hosts.find((h) => !/^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/.test(h));
  if (bad) throw new ConfigError(`ECHO_GATEWAY_MCP_ALLOWED_HOSTS takes host names without ports, comma-separated (found "${bad}")`);
  return { mcp: { allowedHosts: hosts } };
}

export function gatewaySettings(env: Env = process.env): GatewaySettings {
  const off = ['off', '0', 'false', 'no'].includes((env.GATEWAY_RATE_LIMIT ?? '').trim().toLowerCase());
  return {
    host: env.HOST?.trim() || DEFAULT_HOST,
    port: numberSetting(env, 'PORT', DEFAULT_PORT, { integer: true }),
    dataDir: gatewayDataDir(env),
    maxInFlight: numberSetting(env, 'GATEWAY_MAX_IN_FLIGHT', DEFAULT_MAX_IN_FLIGHT, { min: 1, integer: true }),
    databaseUrl: databaseUrlSetting(env),
    databasePoolSize: numberSetting(env, 'GATEWAY_DATABASE_POOL_SIZE', 10, { min: 1, integer: true }),
    clientAddress: clientAddressSetting(env),
    metrics: metricsSetting(env.GATEWAY_METRICS),
    log: logSetting(env.GATEWAY_LOG),
    ...mcpSetting(env),
    rateLimit: off
      ? false
      : {
          perClient: {
            burst: numberSetting(env, 'GATEWAY_CLIENT_BURST', DEFAULT_RATE_LIMIT.perClient.burst, { min: 1 }),
            perSecond: numberSetting(env, 'GATEWAY_CLIENT_PER_MINUTE', DEFAULT_RATE_LIMIT.perClient.perSecond * 60) / 60,
          },
          global: {
            burst: numberSetting(env, 'GATEWAY_GLOBAL_BURST', DEFAULT_RATE_LIMIT.global.burst, { min: 1 }),
            perSecond: numberSetting(env, 'GATEWAY_GLOBAL_PER_MINUTE', DEFAULT_RATE_LIMIT.global.perSecond * 60) / 60,
          },
        },
  };
}
