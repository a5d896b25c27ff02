/**
 * `npm run build [-- --no-cache] [--out-dir DIR]`: the whole site build, timed: it validates the archive, renders the
 * site into dist/, search index included, and has Astro build its own pages, with the record-chain builder that the
 * site publishes (src/builder/bundle.ts). It reuses what the build cache holds for unchanged inputs
 * (src/core/publish/build-cache.ts); --no-cache (or ECHO_ARCHIVE_NO_CACHE=1) builds everything afresh and leaves the
 * cache as it was. A build that fails exits with the step's exit code.
 *
 * The site build runs in this process (src/site/build/outside-astro.ts). Astro's pages read nothing of the archive
 * (the archive's pages are made here: src/site/render/archive-pages.ts), and each `astro build` records its output in
 * the build cache: when that record is for this code and configuration (src/site/build/cache/astro-output.ts), this
 * build writes Astro's recorded files and does not run `astro build` at all, which saves Astro's start, setup and
 * bundling. Else `astro build` makes Astro's pages in a child process, beside the site build, or before it for a
 * large archive (src/site/build/large-archive.ts), so that the two processes' memory is never held at once.
 *
 * The site is built into a staging folder beside the output folder (`.dist.building-<pid>`) and renamed into place
 * only when every step has succeeded, so the output folder is always a whole build, this one or the one before:
 * a build that is killed or runs out of disk space never leaves a half-written site where a deploy or
 * check:published would take it for whole. A step that fails on a full disk is named as such (ENOSPC) in plain words.
 *
 * The staging folder is not made afresh: it is the site before the current one, kept beside it (`.dist.spare`), and
 * the build updates it in place (src/site/build/5-site-folder.ts), writing only the files whose bytes change and
 * removing those that went away: at 100,000 records, 200,000 files are not linked again and removed again on every
 * build. The site it replaces becomes the next spare. Where no spare is left, the staging folder of a build that died
 * is taken instead (a half-updated folder is repaired by the same comparisons), else an empty one; --no-cache always
 * starts from an empty one. Astro's own output goes to `.dist.building-<pid>.astro` and is moved in. A build's first
 * act is to remove what builds that died left and it does not take.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statfsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NO_CACHE_ENV } from '../src/core/publish/build-cache.ts';
import { isProcessAlive } from '../src/core/util/process-alive.ts';
import { spareFolderOf } from '../src/site/build/5-site-folder.ts';
import { astroBeforeSiteBuild, limitHeapGrowthFor } from '../src/site/build/large-archive.ts';
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

Builds the site into dist/: validates every record, renders the pages, writes the search index, and has astro
build make Astro's own pages and bundle the record-chain builder. Unchanged inputs are reused from the build cache
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

// Imported here, not above: --help needs none of the site build.
const { buildOutsideAstro, frameOutsideAstro, recordedOutputFor } = await import('../src/site/build/outside-astro.ts');
const { ASTRO_PAGES_ONLY_ENV } = await import('../src/site/build/astro-pages-only.ts');
const { ArchiveBuildError } = await import('../src/site/build/2-read-archive.ts');
const { consoleLogger } = await import('../src/site/build/console-logger.ts');
type AstroFiles = import('../src/site/build/5-site-folder.ts').AstroFiles;

let frame: ReturnType<typeof frameOutsideAstro>;
try {
  frame = frameOutsideAstro(REPO);
} catch (err) {
  // A deploy build without its public addresses: the message says what to set (src/core/config.ts). Nothing is made yet.
  console.error(`build: ${(err as Error).message}`);
  process.exit(1);
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
// The site build runs in this process and reads the setting from its environment, as `astro build` does from its own.
if (noCache) process.env[NO_CACHE_ENV] = '1';

/** The `astro build` of Astro's own pages, while it runs. */
let astroChild: ChildProcess | undefined;

/**
 * After a failure: Astro's build is stopped and its output goes; the staging folder is kept as the spare (the next
 * build repairs what this one did to it), unless a spare is there already or the disk is full.
 */
const cleanUp = (full = false) => {
  astroChild?.kill('SIGTERM');
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

// A large archive: every heap of this process grows at most 20 % past its live data, and Astro runs before the site
// build rather than beside it (src/site/build/large-archive.ts). A missing archive folder is the build's to report.
const root = resolve(REPO, recordsRoot());
const archiveFiles = existsSync(root) ? listArchiveFiles(root).length : 0;
limitHeapGrowthFor(archiveFiles);

/** A step that failed: its name, why, and the exit code to end with. */
class StepFailure extends Error {
  readonly step: string;
  readonly why: string;
  readonly status: number;
  constructor(step: string, why: string, status: number) {
    super(`${step} failed (${why})`);
    this.step = step;
    this.why = why;
    this.status = status;
  }
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
let astroTime = '';

/** `astro build` of Astro's own pages into `astroOut` (src/site/build/outside-astro.ts), as a child process. */
function runAstro(): Promise<AstroFiles> {
  const start = performance.now();
  return new Promise((done, failed) => {
    const args = [join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', astroOut];
    const child = (astroChild = spawn(process.execPath, args, { cwd: REPO, env: { ...process.env, [ASTRO_PAGES_ONLY_ENV]: '1' }, stdio: 'inherit' }));
    child.once('error', (err) => failed(new StepFailure('astro build', err.message, 1)));
    child.once('exit', (status, signal) => {
      astroChild = undefined;
      if (status !== 0) return failed(new StepFailure('astro build', signal ? `signal ${signal}` : `exit ${status}`, status ?? 1));
      astroTime = seconds(start);
      done({ out: astroOut });
    });
  });
}

/** Stops an `astro build` still running (the site build failed beside it), and waits for it to end. */
async function stopAstro(): Promise<void> {
  const child = astroChild;
  if (child === undefined || child.exitCode !== null) return;
  const ended = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const unheard = setTimeout(() => child.kill('SIGKILL'), 5_000); // Astro ends on SIGTERM; this, if it does not
  await ended;
  clearTimeout(unheard);
}

// Astro's pages read nothing of the archive: when the last `astro build` recorded its output for this code and
// configuration, that is written and Astro does not run; else `astro build` makes them, beside the site build (before
// it for a large archive). Either way the site build runs here (src/site/build/outside-astro.ts).
const recorded = recordedOutputFor(REPO, frame);
const before = astroBeforeSiteBuild(archiveFiles);
const start = performance.now();
try {
  let astro: Promise<AstroFiles>;
  if (typeof recorded !== 'string') astro = Promise.resolve({ recorded });
  else {
    console.log(`build: running astro build: ${recorded}`);
    astro = runAstro();
    astro.catch(() => undefined); // awaited below, or by the site build once it has its own files
    if (before) await astro;
  }
  const pagesFromCache = typeof recorded !== 'string';
  await buildOutsideAstro({ repo: REPO, frame, siteDir: staging, stagingParent: join(REPO, '.astro'), astro, pagesFromCache, logger: consoleLogger('echo-archive') });
} catch (err) {
  await stopAstro();
  if (err instanceof StepFailure) fail(err.step, err.why, err.status);
  // An invalid archive is reported as Astro's integration reports it: the message and its hint, no stack trace.
  if (err instanceof ArchiveBuildError) console.error(`${err.message}\n  Hint: ${err.hint}`);
  else console.error(err);
  fail('the build', err instanceof ArchiveBuildError ? err.name : err instanceof Error ? err.message : String(err), 1);
}
const took =
  typeof recorded !== 'string'
    ? `without astro build, its pages as the last one made them: ${seconds(start)}`
    : `astro build ${astroTime} ${before ? 'before' : 'beside'} the site build, ${seconds(start)} in all`;

// The swap: the previous site aside, the new one in place, the previous one kept as the next build's spare.
rmSync(astroOut, { recursive: true, force: true });
const previous = join(parent, `${PREVIOUS}${process.pid}`);
if (existsSync(outDir)) renameSync(outDir, previous);
renameSync(staging, outDir);
if (existsSync(previous)) {
  rmSync(spare, { recursive: true, force: true }); // one left by --no-cache (which took none) or by a build beside this one
  renameSync(previous, spare);
}
console.log(`build: done (${took})${noCache ? ', without the cache' : ''}`);
