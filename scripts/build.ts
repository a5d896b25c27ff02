/**
 * `npm run build [-- --no-cache] [--out-dir DIR]`: the whole site build, `astro build` as a child process of this
 * Node, timed: it validates the archive, bundles the record-chain builder that the site publishes
 * (src/builder/bundle.ts) and renders the site into dist/, search index included (src/site/build/). It reuses what
 * the build cache holds for unchanged inputs (src/core/publish/build-cache.ts); --no-cache (or
 * ECHO_ARCHIVE_NO_CACHE=1) builds everything afresh and leaves the cache as it was. A build that fails exits with the
 * step's exit code.
 *
 * Without Astro: Astro's own pages read nothing an append changes (the archive's pages are made beside them:
 * src/site/render/archive-pages.ts), and each `astro build` records its output in the build cache. When that record is
 * for this code and configuration (src/site/build/cache/astro-output.ts), this process runs the same build itself and
 * writes Astro's recorded files instead of running `astro build` (src/site/build/without-astro.ts), which saves Astro's
 * start, setup and bundling; when the archive shows that Astro's pages would differ after all (the search page's
 * filter values), it stops and runs `astro build`.
 *
 * The site is built into a staging folder beside the output folder (`.dist.building-<pid>`) and renamed into place
 * only when every step has succeeded, so the output folder is always a whole build, this one or the one before:
 * a build that is killed or runs out of disk space never leaves a half-written site where a deploy or
 * check:published would take it for whole. A step that fails on a full disk is named as such (ENOSPC) in plain words.
 *
 * The staging folder is not made afresh: it is the site before the current one, kept beside it (`.dist.spare`), and
 * the build updates it in place (ECHO_ARCHIVE_SITE_DIR, src/site/build/5-site-folder.ts), writing only the files whose
 * bytes change and removing those that went away: at 100,000 records, 200,000 files are not linked again and removed
 * again on every build. The site it replaces becomes the next spare. Where no spare is left, the staging folder of a
 * build that died is taken instead (a half-updated folder is repaired by the same comparisons), else an empty one;
 * --no-cache always starts from an empty one. Astro's own output goes to `.dist.building-<pid>.astro` and is moved in.
 * A build's first act is to remove what builds that died left and it does not take.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NO_CACHE_ENV } from '../src/core/publish/build-cache.ts';
import { isProcessAlive } from '../src/core/util/process-alive.ts';
import { SITE_DIR_ENV, spareFolderOf } from '../src/site/build/5-site-folder.ts';
import { HEAP_GROWING_FLAG, limitHeapGrowthFor } from '../src/site/build/heap-growth.ts';
import { listArchiveFiles } from '../src/core/archive/list-files.ts';
import { recordsRoot } from '../src/core/config.ts';

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

Builds the site into dist/ with astro build: validates every record, bundles the record-chain builder, renders
the pages and writes the search index. Unchanged inputs are reused from the build cache
(node_modules/.cache/echo-archive/, or ECHO_ARCHIVE_CACHE_DIR): validation results, record and listing pages, search
index files, and Astro's own output: when the code and configuration are those of the last astro build, the build
runs without Astro and writes the pages Astro made then (the archive's own pages are made afresh either way).

The site before the current one is kept beside it (.dist.spare for dist/): the next build updates it in place and
swaps it in, writing only the files that change. It can be deleted at any time; the next build then starts afresh.

  --no-cache      build everything afresh and leave the cache as it was (the same as ${NO_CACHE_ENV}=1)
  --out-dir DIR   build the site into DIR instead of dist/
  -h, --help      this text`);
  process.exit(0);
}

const noCache = values['no-cache'] === true;
const outDir = values['out-dir'] === undefined ? join(REPO, 'dist') : resolve(values['out-dir']);
const parent = dirname(outDir);
const STAGING = `.${basename(outDir)}.building-`;
const PREVIOUS = `.${basename(outDir)}.previous-`;
const spare = spareFolderOf(outDir);
mkdirSync(parent, { recursive: true });
const staging = join(parent, `${STAGING}${process.pid}`);
const astroOut = `${staging}.astro`;

// What builds that died left (their staging folders, or the previous site of a swap they did not finish); a running
// build's are its own. One of them may become this build's staging folder, if no spare is left.
const dead: string[] = [];
for (const name of readdirSync(parent)) {
  const owner = name.startsWith(STAGING) || name.startsWith(PREVIOUS) ? /-(\d+)(?:\.astro)?$/.exec(name)?.[1] : undefined;
  if (owner !== undefined && !isProcessAlive(Number(owner))) dead.push(join(parent, name));
}
const candidates = noCache ? [] : [spare, ...dead.filter((path) => !path.endsWith('.astro'))];
const taken = candidates.find((path) => {
  try {
    renameSync(path, staging);
    return true;
  } catch {
    return false; // gone (another build took it) or not there
  }
});
for (const path of dead) if (path !== taken) rmSync(path, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
if (taken === spare) console.log(`build: updating the spare site folder in place (${basename(spare)})`);
else if (taken !== undefined) console.log(`build: repairing the folder a build that was killed left (${basename(taken)}), in place`);
const env = { ...process.env, ...(noCache ? { [NO_CACHE_ENV]: '1' } : {}), [SITE_DIR_ENV]: staging };

/**
 * After a failure: Astro's output goes; the staging folder is kept as the spare (the next build repairs what this one
 * did to it), unless a spare is there already or the disk is full.
 */
const cleanUp = (full = false) => {
  rmSync(astroOut, { recursive: true, force: true });
  if (!full && !existsSync(spare)) {
    try {
      renameSync(staging, spare);
      return;
    } catch {
      // removed below
    }
  }
  rmSync(staging, { recursive: true, force: true });
};
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

const timings: string[] = [];

/** A failed step: said in plain words (a full disk named as such), the staging folder kept as the spare, the exit. */
function fail(name: string, why: string, status: number): never {
  const full = diskFull(staging) || diskFull(REPO);
  console.error(
    `build: ${name} failed (${why})` +
      (full ? `: the disk is full (no space left on device, ENOSPC). Free some space and build again.` : '') +
      ` ${outDir} was left as it was.`,
  );
  cleanUp(full);
  process.exit(status || 1);
}

// A large archive: every heap of this process and of `astro build`'s grows at most 20 % past its live data
// (src/site/build/heap-growth.ts). A missing archive folder is the build's to report, below.
const root = resolve(REPO, recordsRoot());
const heapFlags = existsSync(root) && limitHeapGrowthFor(listArchiveFiles(root).length) ? [HEAP_GROWING_FLAG] : [];

// Astro's pages depend on nothing an append changes: when the last `astro build` recorded its output for this code
// and configuration, the build writes that and runs without Astro (src/site/build/without-astro.ts).
let withoutAstro = false;
if (!noCache) {
  // Imported here, not above: --help and --no-cache need none of the site build.
  const { buildWithoutAstro, recordedOutputFor } = await import('../src/site/build/without-astro.ts');
  const { ArchiveBuildError } = await import('../src/site/build/2-read-archive.ts');
  const { consoleLogger } = await import('../src/site/build/console-logger.ts');
  const recorded = recordedOutputFor(REPO);
  if (typeof recorded === 'string') console.log(`build: running astro build: ${recorded}`);
  else {
    const start = performance.now();
    const logger = consoleLogger('echo-archive');
    try {
      const result = await buildWithoutAstro({ repo: REPO, siteDir: staging, stagingParent: join(REPO, '.astro'), record: recorded, logger });
      if (result.built) {
        withoutAstro = true;
        timings.push(`without astro build, its pages as the last one made them: ${((performance.now() - start) / 1000).toFixed(1)} s`);
      } else console.log(`build: running astro build after all: ${result.why}`);
    } catch (err) {
      // An invalid archive is reported as Astro's integration reports it: the message and its hint, no stack trace.
      if (err instanceof ArchiveBuildError) console.error(`${err.message}\n  Hint: ${err.hint}`);
      else console.error(err);
      fail('the build', err instanceof ArchiveBuildError ? err.name : err instanceof Error ? err.message : String(err), 1);
    }
  }
}

// One step when Astro runs (the builder's bundle is made inside astro build); a list, so that its report names the step.
const steps: [string, string[]][] = withoutAstro ? [] : [['astro build', [...heapFlags, join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', astroOut]]];
for (const [name, args] of steps) {
  const start = performance.now();
  const { status, signal, error } = spawnSync(process.execPath, args, { cwd: REPO, env, stdio: 'inherit' });
  if (error || status !== 0) fail(name, error?.message ?? (signal ? `signal ${signal}` : `exit ${status}`), status ?? 1);
  timings.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
// The swap: the previous site aside, the new one in place, the previous one kept as the next build's spare.
rmSync(astroOut, { recursive: true, force: true });
const previous = join(parent, `${PREVIOUS}${process.pid}`);
if (existsSync(outDir)) renameSync(outDir, previous);
renameSync(staging, outDir);
if (existsSync(previous)) {
  rmSync(spare, { recursive: true, force: true }); // one left by --no-cache (which took none) or by a build beside this one
  renameSync(previous, spare);
}
console.log(`build: done (${timings.join(', ')})${noCache ? ', without the cache' : ''}`);
