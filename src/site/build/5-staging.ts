/**
 * A folder where one build keeps its records' search documents (src/site/build/7-search-index.ts) or, in a bare
 * `astro build`, assembles the site before it replaces Astro's output (src/site/build/5-site-folder.ts). One per
 * build, named after the build's process, so that two builds of the same project at once (CI jobs, a test run) never
 * share one; folders left by builds whose process is gone (killed, crashed) are removed when the next build starts.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../core/util/process-alive.ts';

const PREFIX = 'echo-records-';

/** Creates this build's staging folder under `parent` (Astro's .astro folder), first removing orphaned ones. */
export function createStaging(parent: string, pid = process.pid): string {
  mkdirSync(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    const owner = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    if (owner !== undefined && !isProcessAlive(Number(owner))) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(parent, `${PREFIX}${pid}-`));
  // mkdtemp makes it private (0700); it becomes a folder of the published site (records/), which is readable by all.
  chmodSync(dir, 0o755);
  return dir;
}

