/**
 * The gateway's settings, from the environment:
 *   HOST, PORT                  where to listen (default 127.0.0.1:8787)
 *   GATEWAY_DATA_DIR            the store and the gateway key (default .gateway-data/)
 *   GATEWAY_RATE_LIMIT          "off" turns rate limiting off
 *   GATEWAY_CLIENT_BURST, GATEWAY_CLIENT_PER_MINUTE   per-client token bucket (default 20, 60)
 *   GATEWAY_GLOBAL_BURST, GATEWAY_GLOBAL_PER_MINUTE   global token bucket (default 200, 1200)
 *   GATEWAY_MAX_IN_FLIGHT       requests handled at once; beyond, 503 overloaded (default 64)
 *   SITE_URL, GATEWAY_URL       the site configuration (src/core/config.ts): receipts' readback and 410 routes
 */
import type { RateLimitSettings } from './rate-limit.ts';

type Env = Record<string, string | undefined>;

export const DEFAULT_HOST = '127.0.0.1';
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
}

export function gatewaySettings(env: Env = process.env): GatewaySettings {
  const off = ['off', '0', 'false', 'no'].includes((env.GATEWAY_RATE_LIMIT ?? '').trim().toLowerCase());
  return {
    host: env.HOST?.trim() || DEFAULT_HOST,
    port: numberSetting(env, 'PORT', DEFAULT_PORT, { integer: true }),
    dataDir: gatewayDataDir(env),
    maxInFlight: numberSetting(env, 'GATEWAY_MAX_IN_FLIGHT', DEFAULT_MAX_IN_FLIGHT, { min: 1, integer: true }),
    rateLimit: off
      ? false
      : {
          perClient: { burst: numberSetting(env, 'GATEWAY_CLIENT_BURST', 20, { min: 1 }), perSecond: numberSetting(env, 'GATEWAY_CLIENT_PER_MINUTE', 60) / 60 },
          global: { burst: numberSetting(env, 'GATEWAY_GLOBAL_BURST', 200, { min: 1 }), perSecond: numberSetting(env, 'GATEWAY_GLOBAL_PER_MINUTE', 1200) / 60 },
        },
  };
}
