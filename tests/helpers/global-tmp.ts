/**
 * Vitest global setup: the whole run gets its own temporary folder (TMPDIR, inherited by the test workers and every
 * process they start), removed at the end, so that a test that forgets to clean up, or a killed child process,
 * leaves nothing in the system's temporary directory. What was left is named, so the leak can be fixed at its test.
 * The build cache (ECHO_ARCHIVE_CACHE_DIR) lives there too, so that site builds in tests use the cache as real builds
 * do but leave nothing in node_modules/.cache/, and so does Node's compile cache (NODE_COMPILE_CACHE).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'echo-archive-tests-'));
  process.env.TMPDIR = dir;
  // Caches every build in the run may write: ours, and Node's compile cache (Astro turns it on, by default in TMPDIR).
  const caches: Record<string, string> = { ECHO_ARCHIVE_CACHE_DIR: 'build-cache-', NODE_COMPILE_CACHE: 'node-compile-cache-' };
  const previousCaches = Object.fromEntries(Object.keys(caches).map((name) => [name, process.env[name]]));
  for (const [name, prefix] of Object.entries(caches)) process.env[name] = mkdtempSync(join(dir, prefix));
  return () => {
    for (const [name, previousValue] of Object.entries(previousCaches)) {
      // Retried: a test worker that is still exiting may be writing its compile cache here (ENOTEMPTY).
      rmSync(process.env[name]!, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      if (previousValue === undefined) delete process.env[name];
      else process.env[name] = previousValue;
    }
    const left = readdirSync(dir);
    if (left.length > 0) console.warn(`[tests] removing ${left.length} temporary entries tests left behind: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', …' : ''}`);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  };
}
