/**
 * The site's configuration, from one place: every caller (the Astro build, the CLI, the gateway, the builder)
 * reads it here. Environment variables override the defaults:
 *   RECORDS_DIR  archive root (default records/)
 *   SITE_URL     the public base URL of the site ({base_url} in published documents)
 *   GATEWAY_URL  the intake gateway's base URL ({gateway_url} in published documents)
 */
export const DEFAULT_RECORDS_DIR = 'records';
export const DEFAULT_SITE_URL = 'http://localhost:4321';
export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:8787';

type Env = Record<string, string | undefined>;

function setting(env: Env, name: string, fallback: string): string {
  const value = env[name]?.trim();
  return value ? value : fallback;
}

export function recordsRoot(env: Env = process.env): string {
  return setting(env, 'RECORDS_DIR', DEFAULT_RECORDS_DIR);
}

export interface SiteConfig {
  /** Absolute base URL without a trailing slash, e.g. https://echoes.example.org */
  baseUrl: string;
  /** Absolute gateway URL without a trailing slash. */
  gatewayUrl: string;
}

export function siteConfig(env: Env = process.env): SiteConfig {
  return {
    baseUrl: withoutTrailingSlash(setting(env, 'SITE_URL', DEFAULT_SITE_URL)),
    gatewayUrl: withoutTrailingSlash(setting(env, 'GATEWAY_URL', DEFAULT_GATEWAY_URL)),
  };
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
