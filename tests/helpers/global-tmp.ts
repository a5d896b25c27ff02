/**
 * Vitest global setup: the whole run gets its own temporary folder (TMPDIR, inherited by the test workers and every
 * process they start), removed at the end, so that a test that forgets to clean up, or a killed child process,
 * leaves nothing in the system's temporary directory. What was left is named, so the leak can be fixed at its test.
 * The build cache (ECHO_ARCHIVE_CACHE_DIR) lives there too, so that site builds in tests use the cache as real builds
 * do but leave nothing in node_modules/.cache/.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'echo-archive-tests-'));
  process.env.TMPDIR = dir;
  const previousCache = process.env.ECHO_ARCHIVE_CACHE_DIR;
  const cache = mkdtempSync(join(dir, 'build-cache-'));
  process.env.ECHO_ARCHIVE_CACHE_DIR = cache;
  return () => {
    rmSync(cache, { recursive: true, force: true });
    if (previousCache === undefined) delete process.env.ECHO_ARCHIVE_CACHE_DIR;
    else process.env.ECHO_ARCHIVE_CACHE_DIR = previousCache;
    const left = readdirSync(dir);
    if (left.length > 0) console.warn(`[tests] removing ${left.length} temporary entries tests left behind: ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', …' : ''}`);
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  };
}
