/**
 * The site's configuration, from one place: every caller (the Astro build, the CLI, the gateway, the builder)
 * reads it here. Environment variables override the defaults:
 *   RECORDS_DIR  archive root (default records/)
 *   SITE_URL     the public base URL of the site ({base_url} in published documents)
 *   GATEWAY_URL  the intake gateway's base URL ({gateway_url} in published documents)
 *   ECHO_ARCHIVE_DEPLOY=1  a production build (the deploy workflow sets it): SITE_URL and GATEWAY_URL must then be
 *                set to public URLs, since the localhost defaults would be published in policies, llms.txt and the builder
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

/**
 * The path the site is served under, from its base URL: "/" for https://echoes.example.org, "/echo-archive/" for a
 * GitHub Pages project site at https://owner.github.io/echo-archive (Astro's `base`).
 */
export function basePathOf(baseUrl: string): string {
  const path = new URL(baseUrl).pathname;
  return path.endsWith('/') ? path : `${path}/`;
}

/**
 * The site's address as Astro's configuration takes it (`site`, `base`), from the build's configuration
 * (buildSiteConfig: a deploy build without public addresses stops here). astro.config.mjs passes it to Astro, and the
 * site build of `npm run build`, outside Astro's process (src/site/build/outside-astro.ts), works out the same frame from it.
 */
export function siteAddress(env: Env = process.env): { site: string; base: string } {
  const { baseUrl } = buildSiteConfig(env);
  return { site: baseUrl, base: basePathOf(baseUrl) };
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Whether this build is published (ECHO_ARCHIVE_DEPLOY=1 or true): the deploy workflow says so explicitly. */
export function isDeployBuild(env: Env = process.env): boolean {
  const v = env.ECHO_ARCHIVE_DEPLOY?.trim().toLowerCase();
  return v === '1' || v === 'true';
}

const LOCAL_HOST = /^(localhost|.*\.localhost|.*\.local|127(\.\d+){3}|0\.0\.0\.0|\[::1?\]|\[::ffff:127(\.\d+){3}\])$/i;

/** What is wrong with `name` for a published site, or undefined when it is a public http(s) URL. */
function publicUrlProblem(env: Env, name: 'SITE_URL' | 'GATEWAY_URL'): string | undefined {
  const value = env[name]?.trim();
  if (!value) return `${name} is not set (the development default is ${name === 'SITE_URL' ? DEFAULT_SITE_URL : DEFAULT_GATEWAY_URL})`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${name} is not an absolute URL: ${value}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${name} is not an http(s) URL: ${value}`;
  if (LOCAL_HOST.test(url.hostname)) return `${name} points at this machine: ${value}`;
  return undefined;
}

export class DeployConfigError extends Error {}

/**
 * The configuration of a build. A production build (ECHO_ARCHIVE_DEPLOY=1) without public SITE_URL and GATEWAY_URL
 * fails here, before anything is written; a local build keeps the development defaults and `notice` says so.
 */
export function buildSiteConfig(env: Env = process.env, notice: (message: string) => void = () => {}): SiteConfig {
  const problems = (['SITE_URL', 'GATEWAY_URL'] as const).map((n) => publicUrlProblem(env, n)).filter((p) => p !== undefined);
  if (isDeployBuild(env) && problems.length > 0) {
    throw new DeployConfigError(
      `a production build (ECHO_ARCHIVE_DEPLOY=1) needs the public addresses, or it would publish development ones in the policies, llms.txt and the builder: ${problems.join('; ')}. ` +
        'Set SITE_URL (the site\'s public base URL) and GATEWAY_URL (the intake gateway\'s) — in GitHub, as repository variables (Settings → Secrets and variables → Actions → Variables).',
    );
  }
  const config = siteConfig(env);
  const defaults = [env.SITE_URL?.trim() ? '' : `SITE_URL=${config.baseUrl}`, env.GATEWAY_URL?.trim() ? '' : `GATEWAY_URL=${config.gatewayUrl}`].filter(Boolean);
  if (!isDeployBuild(env) && defaults.length > 0) {
    notice(`a local build: using the development defaults ${defaults.join(' and ')}. A published build sets ECHO_ARCHIVE_DEPLOY=1 with public SITE_URL and GATEWAY_URL.`);
  }
  return config;
}
