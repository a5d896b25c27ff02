/**
 * `npm run build [-- --no-cache] [--out-dir DIR]`: the whole site build, in its two steps, each a child process of
 * this Node, timed:
 *   1. the record-chain builder bundle (scripts/build-builder.ts), which the site publishes;
 *   2. `astro build`: validates the archive and renders the site into dist/, search index included (src/site/build/).
 * Step 2 reuses what the build cache holds for unchanged inputs (src/core/publish/build-cache.ts); --no-cache
 * (or ECHO_ARCHIVE_NO_CACHE=1) builds everything afresh and leaves the cache as it was. Stops at the first step that
 * fails, with its exit code.
 *
 * The site is built into a staging folder beside the output folder (`.dist.building-<pid>`) and renamed into place
 * only when every step has succeeded, so the output folder is always a whole build, this one or the one before:
 * a build that is killed or runs out of disk space never leaves a half-written site where a deploy or
 * check:published would take it for whole. A build's first act is to remove the staging folders of builds that
 * died. A step that fails on a full disk is named as such (ENOSPC) in plain words.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NO_CACHE_ENV } from '../src/core/publish/build-cache.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

let values: { 'no-cache'?: boolean; 'out-dir'?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { 'no-cache': { type: 'boolean' }, 'out-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
} catch (err) {
  console.error(`build: ${(err as Error).message}\nRun npm run build -- --help for the options.`);
  process.exit(2);
}
if (values.help) {
  console.log(`Usage: npm run build [-- --no-cache] [--out-dir DIR]

Builds the site into dist/: the record-chain builder bundle, then astro build (validates every record, renders
the pages and writes the search index). Unchanged inputs are reused from the build cache
(node_modules/.cache/echo-archive/, or ECHO_ARCHIVE_CACHE_DIR): validation results, record pages.

  --no-cache      build everything afresh and leave the cache as it was (the same as ${NO_CACHE_ENV}=1)
  --out-dir DIR   build the site into DIR instead of dist/
  -h, --help      this text`);
  process.exit(0);
}

const env = values['no-cache'] ? { ...process.env, [NO_CACHE_ENV]: '1' } : process.env;
const outDir = values['out-dir'] === undefined ? join(REPO, 'dist') : resolve(values['out-dir']);
const parent = dirname(outDir);
const STAGING = `.${basename(outDir)}.building-`;
const PREVIOUS = `.${basename(outDir)}.previous-`;
mkdirSync(parent, { recursive: true });
// What builds that were killed left: their staging folders, or the previous site of a swap they did not finish.
for (const name of readdirSync(parent)) {
  if (name.startsWith(STAGING) || name.startsWith(PREVIOUS)) rmSync(join(parent, name), { recursive: true, force: true });
}
const staging = join(parent, `${STAGING}${process.pid}`);
const cleanUp = () => rmSync(staging, { recursive: true, force: true });
process.once('SIGINT', () => (cleanUp(), process.exit(130)));
process.once('SIGTERM', () => (cleanUp(), process.exit(143)));

/** Whether the filesystem under `dir` has (about) no space left. */
function diskFull(dir: string): boolean {
  try {
    const fs = statfsSync(existsSync(dir) ? dir : parent);
    return fs.bavail * fs.bsize < 64 * 1024;
  } catch {
    return false;
  }
}

const steps: [string, string[]][] = [
  ['record-chain builder', [join(REPO, 'scripts/build-builder.ts')]],
  ['astro build', [join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', staging]],
];
const timings: string[] = [];
for (const [name, args] of steps) {
  const start = performance.now();
  const { status, signal, error } = spawnSync(process.execPath, args, { cwd: REPO, env, stdio: 'inherit' });
  if (error || status !== 0) {
    const full = diskFull(staging) || diskFull(REPO);
    console.error(
      `build: ${name} failed (${error?.message ?? (signal ? `signal ${signal}` : `exit ${status}`)})` +
        (full ? `: the disk is full (no space left on device, ENOSPC). Free some space and build again.` : '') +
        ` ${outDir} was left as it was.`,
    );
    cleanUp();
    process.exit(status || 1);
  }
  timings.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
// The swap: the previous site aside, the new one in place, the previous one removed.
const previous = join(parent, `${PREVIOUS}${process.pid}`);
if (existsSync(outDir)) renameSync(outDir, previous);
renameSync(staging, outDir);
rmSync(previous, { recursive: true, force: true });
console.log(`build: done (${timings.join(', ')})${values['no-cache'] ? ', without the cache' : ''}`);
