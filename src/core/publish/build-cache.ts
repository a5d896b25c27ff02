/**
 * Where the build's caches live and how to turn them off: one place for every cache of the build (validation,
 * record pages, search bundles), so that CI persists one folder and one switch forces a clean build.
 *
 * Default: node_modules/.cache/echo-archive/ (what build tools use, and what CI caches keep); ECHO_ARCHIVE_CACHE_DIR
 * for another place. ECHO_ARCHIVE_NO_CACHE=1 (or `npm run build -- --no-cache`) builds everything afresh and leaves
 * the caches as they were. Every cache is checked by hash before use: a damaged or foreign entry is ignored.
 */
import { isAbsolute, join, resolve } from 'node:path';

/** The environment variable that turns every cache off (any non-empty value but 0 or false), like --no-cache. */
export const NO_CACHE_ENV = 'ECHO_ARCHIVE_NO_CACHE';

/** The environment variable naming the cache folder (relative paths from the project root). */
export const CACHE_DIR_ENV = 'ECHO_ARCHIVE_CACHE_DIR';

export function noCacheFromEnv(env: Record<string, string | undefined> = process.env): boolean {
  const v = env[NO_CACHE_ENV]?.trim().toLowerCase();
  return !!v && v !== '0' && v !== 'false';
}

/** The build cache's root folder for the project at `repo`. */
export function buildCacheRoot(repo: string, env: Record<string, string | undefined> = process.env): string {
  const configured = env[CACHE_DIR_ENV]?.trim();
  if (configured) return isAbsolute(configured) ? configured : resolve(repo, configured);
  return join(repo, 'node_modules', '.cache', 'echo-archive');
}
