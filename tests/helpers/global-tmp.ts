/**
 * Vitest global setup: the whole run gets its own temporary folder (TMPDIR, inherited by the test workers and every
 * process they start), removed at the end, so that a test that forgets to clean up, or a killed child process,
 * leaves nothing in the system's temporary directory. What was left is named, so the leak can be fixed at its test.
 * The build cache (ECHO_ARCHIVE_CACHE_DIR) lives there too, so that site builds in tests use the cache as real builds
 * do but leave nothing in node_modules/.cache/, and so does Node's compile cache of the processes tests start
 * (child-compile-cache.ts).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the processes tests start keep Node's compile cache (child-compile-cache.ts sets NODE_COMPILE_CACHE to it). */
export const TEST_COMPILE_CACHE_ENV = 'ECHO_ARCHIVE_TEST_COMPILE_CACHE';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'echo-archive-tests-'));
  process.env.TMPDIR = dir;
  // Caches the builds in the run may write: ours, and Node's compile cache (Astro turns it on). The compile cache is
  // not the test workers' own: a worker writes its cache as it exits, which may be after this run's teardown, and
  // would leave a folder behind; the processes the tests start end before the tests do.
  const previousCompileCache = process.env.NODE_COMPILE_CACHE;
  delete process.env.NODE_COMPILE_CACHE;
  const caches: Record<string, string> = { ECHO_ARCHIVE_CACHE_DIR: 'build-cache-', [TEST_COMPILE_CACHE_ENV]: 'node-compile-cache-' };
  const previousCaches = Object.fromEntries(Object.keys(caches).map((name) => [name, process.env[name]]));
  for (const [name, prefix] of Object.entries(caches)) process.env[name] = mkdtempSync(join(dir, prefix));
  return () => {
    for (const [name, previousValue] of Object.entries(previousCaches)) {
      remove(process.env[name]!);
      if (previousValue === undefined) delete process.env[name];
      else process.env[name] = previousValue;
    }
    if (previousCompileCache !== undefined) process.env.NODE_COMPILE_CACHE = previousCompileCache;
    const left = readdirSync(dir);
    if (left.length > 0) console.warn(`[tests] removing ${left.length} temporary entries tests left behind: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', …' : ''}`);
    remove(dir);
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  };
}

/** Removes `path`, retried while a process that is still exiting writes there; what cannot be removed is named. */
function remove(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (err) {
    console.warn(`[tests] could not remove ${path}: ${(err as Error).message}`);
  }
}
