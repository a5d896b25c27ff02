/**
 * `npm run bench:build -- --records N [--runs R] [--incremental] [--keep]`
 *
 * The site build benchmark (not a timed test). In one run:
 *   1. generates the deterministic synthetic archive of N records (scripts/lib/synthetic-archive.ts) in a temporary
 *      folder; the generator makes about 1 in 100 records invalid on purpose, and the site build (rightly) refuses
 *      an invalid archive, so those files are removed first and the figures are for the remaining valid records;
 *   2. runs the real site build over it: `astro build` (RECORDS_DIR=<temp>, --outDir <temp>), which bundles the
 *      record-chain builder and writes the search index too (src/site/build/7-search-index.ts);
 *   3. builds a bare Astro project of the same number of trivial pages (one src/pages/[id].astro whose
 *      getStaticPaths returns the ids), made in a temporary folder that uses this project's node_modules;
 * and prints the wall time and peak memory of each step (the resident set of the whole process tree, summed, polled
 * from /proc/<pid>/status; or /usr/bin/time -v's maximum resident set size of its largest process, if that is more),
 * and the ratio site / bare.
 *
 * With --runs R, the site's `astro build` and the bare build run R times each, alternately (site, bare, site, …, so
 * that a slow spell of the machine hits both), each into a fresh folder; it prints every run, the median times and
 * the median of the per-run ratios.
 *
 * Everything is written under TMPDIR (the archive, both builds' output), which must be on the project's file system
 * (Astro moves build files from the project's .astro/ into the output). On a virtual machine whose disk is
 * rate-limited, sustained writes slow every later build down (a bare build of 10,000 pages went from 10 s to 26 s
 * over six runs in a row): to measure the builds rather than the disk's throttle, run from a copy of the checkout in
 * memory, e.g. `cp -a . /dev/shm/echo-archive && cd /dev/shm/echo-archive && TMPDIR=/dev/shm npm run bench:build`.
 *
 * With --incremental, the site is built as `npm run build` builds it (scripts/build.ts: astro build, with the
 * builder's bundle and the search index) with its own build cache, R rounds of: a clean build (--no-cache, into an
 * empty output folder with no spare beside it), the build that fills an empty cache, a build with nothing changed,
 * the build after one record is appended (the next sequence number, as intake appends), the build after one record
 * in the middle of the archive is modified, the build after one more record is appended (by then both folders link
 * the cache's entries and the page cache knows them by their change time: a settled site, as a maintainer's machine
 * has after a few builds; the first append follows the first build over a clean build's files, which links every page
 * anew), and the bare build; then medians, and each incremental build as a share
 * of the clean build of the same round. Every build after the clean one keeps the output folder, as `npm run build`
 * run again does: it updates the spare site beside it in place (scripts/build.ts).
 *
 * Every step is a fresh child process running the project's Node 22 (node_modules/.bin/node).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { archiveDateOf, highestSequence, recordIdOf, recordPathFor, sequenceOf } from '../src/core/archive/paths.ts';
import { npmScriptArgs } from './lib/npm-script-args.ts';
import { generateValidArchive } from './lib/valid-synthetic-archive.ts';
import { spareFolderOf } from '../src/site/build/5-site-folder.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE = join(REPO, 'node_modules/.bin/node');
const ASTRO = join(REPO, 'node_modules/astro/bin/astro.mjs');
/** `npm run build`'s Node arguments (package.json), without npm itself: e.g. the stripped-types cache's hook, then scripts/build.ts. */
const BUILD_ARGS = npmScriptArgs(REPO, 'build');
const GNU_TIME = '/usr/bin/time';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    incremental: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    'Usage: npm run bench:build -- [--records N (2000)] [--runs R (1): alternate site and bare builds R times, report medians] ' +
      '[--incremental: the whole npm run build clean, then after appending and after modifying one record, with the build cache] [--keep (leave the temporary folders)]',
  );
  process.exit(0);
}
const n = Number(values.records);
if (!Number.isInteger(n) || n < 1) {
  console.error('bench:build: --records takes a positive integer');
  process.exit(2);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 20) {
  console.error('bench:build: --runs takes a whole number from 1 to 20');
  process.exit(2);
}

interface Measured {
  wallMs: number;
  peakKb: number;
  code: number;
  tail: string;
  /** The lines of the output that say what the build reused or wrote (record pages, validation, the search index). */
  notes: string[];
}

const NOTE = /Rendered \d+ record pages|Wrote the search index|from the cache|Page cache:|raw records? \(/;

/** Runs a command as a child process; wall time, peak RSS of its process tree (KB) and the end of its output. */
function measure(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Measured> {
  const useTime = existsSync(GNU_TIME);
  const statsFile = join(tmpdir(), `echo-bench-time-${process.pid}-${Date.now()}.txt`);
  const [file, argv] = useTime ? [GNU_TIME, ['-v', '-o', statsFile, cmd, ...args]] : [cmd, args];
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(file, argv, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const notes: string[] = [];
    let partial = '';
    const keep = (b: Buffer) => {
      out = (out + b.toString()).slice(-20_000);
      const lines = (partial + b.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (NOTE.test(line) && !line.includes('unchanged: from the cache')) notes.push(line.replace(/^\d\d:\d\d:\d\d /, ''));
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // The process tree's RSS, the child and its descendants summed, read from /proc: a build runs `astro build` as a
    // process of its own beside it, and GNU time's maximum is that of the largest single process.
    let polled = 0;
    const timer = setInterval(() => (polled = Math.max(polled, treeRssKb(child.pid!))), useTime ? 100 : 50);
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - start;
      clearInterval(timer);
      // The larger of the two: the polled sum may miss a short peak between two readings.
      let peakKb = polled;
      if (useTime && existsSync(statsFile)) {
        const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(statsFile, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
        unlinkSync(statsFile);
      }
      done({ wallMs, peakKb, code: code ?? 1, tail: out.split('\n').slice(-25).join('\n'), notes });
    });
  });
}

/**
 * The resident set of `pid` and its descendants, summed. Each process's children are read from its main thread's
 * `children` file (Node spawns from its main thread), a few reads per poll; where the kernel has no such file, from
 * the parent of every process in /proc.
 */
function treeRssKb(pid: number): number {
  let total = 0;
  const childrenOf = HAS_CHILDREN_FILES ? childrenFile : childrenByScan();
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* gone */
    }
    stack.push(...childrenOf(p));
  }
  return total;
}

/** Whether the kernel lists each thread's children (CONFIG_PROC_CHILDREN): asked once, not on every poll. */
const HAS_CHILDREN_FILES = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

function childrenFile(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return []; // gone
  }
}

function childrenByScan(): (pid: number) => number[] {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      /* gone */
    }
  }
  return (pid) => kids.get(pid) ?? [];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function ms(t: number): string {
  return t >= 10_000 ? `${(t / 1000).toFixed(1)} s` : `${Math.round(t)} ms`;
}
function mb(kb: number): string {
  return kb >= 1024 * 1024 ? `${(kb / 1024 / 1024).toFixed(2)} GB` : `${Math.round(kb / 1024)} MB`;
}
function fail(step: string, m: Measured): never {
  console.error(`bench:build: ${step} failed (exit ${m.code}):\n${m.tail}`);
  process.exit(1);
}

if (statSync(tmpdir()).dev !== statSync(REPO).dev) {
  console.error(
    `bench:build: the temporary folder ${tmpdir()} is on another file system than the project ${REPO}; Astro moves ` +
      'build files from the project into the output folder, so set TMPDIR to a folder on the same file system ' +
      '(or run from a copy of the project next to it).',
  );
  process.exit(2);
}
const base = mkdtempSync(join(tmpdir(), 'echo-bench-build-'));
const records = join(base, 'records');
try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${mb(totalmem() / 1024)} RAM; node ${process.version}`);
  console.log(`working folder: ${base} (TMPDIR sets where)`);
  console.log(`peak memory: the process tree's RSS, summed, polled from /proc${existsSync(GNU_TIME) ? ", or /usr/bin/time -v's maximum RSS of one process if more" : ''}`);

  // 1. the synthetic archive, invalid files removed
  let t = performance.now();
  const gen = await generateValidArchive(records, n);
  const { removed, valid: count } = gen;
  console.log(
    `generated ${gen.files} records (${(gen.bytes / 1e6).toFixed(1)} MB), removed ${removed} deliberately invalid: ` +
      `${count} records in ${ms(performance.now() - t)}`,
  );

  // 2. the real site build, and 3. the bare Astro build of `count` trivial pages, alternately
  const env = { RECORDS_DIR: records, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' };

  const bare = join(base, 'bare');
  mkdirSync(join(bare, 'src/pages'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(bare, 'node_modules'), 'dir');
  writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare-bench', private: true, type: 'module' }) + '\n');
  writeFileSync(join(bare, 'astro.config.mjs'), "export default { output: 'static', cacheDir: './.cache', devToolbar: { enabled: false } };\n");
  writeFileSync(
    join(bare, 'src/pages/[id].astro'),
    [
      '---',
      'export function getStaticPaths() {',
      `  return Array.from({ length: ${count} }, (_, i) => ({ params: { id: 'page-' + String(i + 1).padStart(6, '0') } }));`,
      '}',
      'const { id } = Astro.params;',
      '---',
      '<html lang="en"><head><meta charset="utf-8"><title>{id}</title></head><body><h1>{id}</h1></body></html>',
      '',
    ].join('\n'),
  );

  await (values.incremental ? incremental(count, bare, env) : cleanRuns(count, bare, env));
} finally {
  if (values.keep) console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}

function du(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? du(p) : statSync(p).size;
  }
  return total;
}

/**
 * --incremental: R rounds of the whole build (scripts/build.ts) clean, with an empty cache, with nothing changed,
 * after appending one record and after modifying one, and the bare build; medians and shares of the clean build.
 */
async function incremental(count: number, bare: string, env: Record<string, string>): Promise<void> {
  const cache = join(base, 'cache');
  const buildEnv = { ...env, ECHO_ARCHIVE_CACHE_DIR: cache };
  const out = join(base, 'site');
  const whole = async (label: string, args: string[] = []): Promise<Measured> => {
    // Clean: no output folder and no spare site beside it; the others build over the last one, as a user's do.
    if (args.includes('--no-cache')) for (const dir of [out, spareFolderOf(out)]) rmSync(dir, { recursive: true, force: true });
    console.log(`  ${label} …`);
    const m = await measure(NODE, [...BUILD_ARGS, '--out-dir', out, ...args], { cwd: REPO, env: buildEnv });
    if (m.code !== 0) fail(label, m);
    const steps = /build: done \((.*)\)/.exec(m.tail)?.[1] ?? '';
    console.log(`    ${ms(m.wallMs)}, peak ${mb(m.peakKb)}: ${steps}`);
    for (const note of m.notes) console.log(`      ${note}`);
    return m;
  };
  const files = sequenceOrderedFiles(records);
  const rows: { clean: Measured; first: Measured; same: Measured; append: Measured; modify: Measured; settled: Measured; bare: Measured }[] = [];
  for (let run = 1; run <= runs; run++) {
    console.log(`round ${run} of ${runs} (${count + 2 * (run - 1)} records at the start):`);
    rmSync(cache, { recursive: true, force: true });
    const clean = await whole('clean build (--no-cache)', ['--no-cache']);
    const first = await whole('build with an empty cache (fills it)');
    const same = await whole('with nothing changed');
    appendRecord(records, files);
    const append = await whole('after appending one record');
    modifyRecord(join(records, files[Math.floor(files.length / 2)]!), run);
    const modify = await whole('after modifying one record');
    appendRecord(records, files);
    const settled = await whole('after appending one more record (the site settled)');
    for (const leftover of ['dist', '.cache', '.astro']) rmSync(join(bare, leftover), { recursive: true, force: true });
    console.log(`  bare astro build of ${count} trivial pages …`);
    const bareRun = await measure(NODE, [ASTRO, 'build', '--outDir', join(bare, 'dist')], { cwd: bare, env: { ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' } });
    if (bareRun.code !== 0) fail('bare astro build', bareRun);
    console.log(`    ${ms(bareRun.wallMs)}`);
    rows.push({ clean, first, same, append, modify, settled, bare: bareRun });
  }
  const med = (pick: (r: (typeof rows)[number]) => Measured) => median(rows.map((r) => pick(r).wallMs));
  const share = (pick: (r: (typeof rows)[number]) => Measured) => median(rows.map((r) => pick(r).wallMs / r.clean.wallMs));
  const peak = (pick: (r: (typeof rows)[number]) => Measured) => mb(Math.max(...rows.map((r) => pick(r).peakKb)));
  const label = runs > 1 ? `median of ${runs}` : 'single run';
  console.log('');
  console.log(`records: ${count} (+2 per round)   whole npm run build (astro build with the builder's bundle and the search index), ${label}:`);
  console.log(`clean (--no-cache)          ${ms(med((r) => r.clean)).padStart(9)}   peak ${peak((r) => r.clean)}   ${(med((r) => r.clean) / med((r) => r.bare)).toFixed(2)} × bare`);
  console.log(`empty cache (fills it)      ${ms(med((r) => r.first)).padStart(9)}   peak ${peak((r) => r.first)}   ${(share((r) => r.first) * 100).toFixed(0)} % of clean`);
  console.log(`nothing changed             ${ms(med((r) => r.same)).padStart(9)}   peak ${peak((r) => r.same)}   ${(share((r) => r.same) * 100).toFixed(0)} % of clean`);
  console.log(`one record appended         ${ms(med((r) => r.append)).padStart(9)}   peak ${peak((r) => r.append)}   ${(share((r) => r.append) * 100).toFixed(0)} % of clean`);
  console.log(`one record modified         ${ms(med((r) => r.modify)).padStart(9)}   peak ${peak((r) => r.modify)}   ${(share((r) => r.modify) * 100).toFixed(0)} % of clean`);
  console.log(`one more appended, settled  ${ms(med((r) => r.settled)).padStart(9)}   peak ${peak((r) => r.settled)}   ${(share((r) => r.settled) * 100).toFixed(0)} % of clean`);
  console.log(`bare astro build            ${ms(med((r) => r.bare)).padStart(9)}   peak ${peak((r) => r.bare)}   (${count} trivial pages)`);
  console.log('(shares are medians of the per-round ratios; wall times include process start-up)');
}

/** The archive's conventionally named record files (paths from the root), in sequence order (the core's sequenceOf). */
function sequenceOrderedFiles(root: string): string[] {
  const paths = (readdirSync(root, { recursive: true }) as string[]).map((p) => p.split(sep).join('/')).filter((p) => sequenceOf(p) !== undefined);
  return paths.sort((a, b) => sequenceOf(a)! - sequenceOf(b)!);
}

/**
 * Appends a record as intake would: the newest record's content under the next sequence number, with its own words,
 * on the newest record's date (intake names a record by the day it accepts it, so no record is dated after the newest:
 * it comes last in the archive's path order too). Until 2026-11-29 it was dated 2026-12-31, before the synthetic
 * archive's last two years, which put it in the middle of the path order.
 */
function appendRecord(root: string, files: string[]): void {
  const seq = highestSequence(files) + 1;
  const newest = files[files.length - 1]!;
  const record = JSON.parse(readFileSync(join(root, newest), 'utf8')) as Record<string, unknown>;
  record.understanding_summary = `An appended record, number ${seq}: ${String(record.understanding_summary)}`;
  const path = recordPathFor(archiveDateOf(recordIdOf(newest))!, seq);
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), JSON.stringify(record, null, 2) + '\n');
  files.push(path);
}

/** Modifies one record's words in place (round `run`, so each round changes it again). */
function modifyRecord(path: string, run: number): void {
  const record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  record.understanding_summary = `Revised (${run}): ${String(record.understanding_summary).replace(/^Revised \(\d+\): /, '')}`;
  writeFileSync(path, JSON.stringify(record, null, 2) + '\n');
}

/** Without --incremental: the site's `astro build` and the bare build, R times each, alternately. */
async function cleanRuns(count: number, bare: string, env: Record<string, string>): Promise<void> {
  const siteRuns: Measured[] = [];
  const bareRuns: Measured[] = [];
  let pages = '?';
  let siteSize = 0;
  for (let run = 1; run <= runs; run++) {
    const of = runs > 1 ? ` (run ${run} of ${runs})` : '';
    const siteOut = join(base, 'site');
    rmSync(siteOut, { recursive: true, force: true });
    console.log(`site build: astro build${of} …`);
    // Clean builds: the build cache would make every run after the first an incremental one (--incremental measures that).
    const site = await measure(NODE, [ASTRO, 'build', '--outDir', siteOut], { cwd: REPO, env: { ...env, ECHO_ARCHIVE_NO_CACHE: '1' } });
    if (site.code !== 0) fail('site astro build', site);
    siteRuns.push(site);
    if (run === 1) {
      // Astro counts its own pages; the record pages are rendered beside it (src/site/build/3-record-pages.ts).
      const astroPages = /(\d+) page\(s\) built/.exec(site.tail)?.[1];
      const recordPages = /Rendered (\d+) record page/.exec(site.tail)?.[1];
      pages = astroPages && recordPages ? `${Number(astroPages) + Number(recordPages)} (${recordPages} record pages, ${astroPages} by Astro)` : (astroPages ?? '?');
      siteSize = du(siteOut);
    }

    for (const leftover of ['dist', '.cache', '.astro']) rmSync(join(bare, leftover), { recursive: true, force: true });
    console.log(`bare build: astro build of ${count} trivial pages${of} …`);
    const bareRun = await measure(NODE, [ASTRO, 'build', '--outDir', join(bare, 'dist')], { cwd: bare, env: { ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' } });
    if (bareRun.code !== 0) fail('bare astro build', bareRun);
    bareRuns.push(bareRun);
    if (runs > 1) {
      console.log(`  run ${run}: site ${ms(site.wallMs)}, bare ${ms(bareRun.wallMs)}, ratio ${(site.wallMs / bareRun.wallMs).toFixed(2)} ×`);
    }
  }

  const siteMs = median(siteRuns.map((m) => m.wallMs));
  const bareMs = median(bareRuns.map((m) => m.wallMs));
  const ratio = median(siteRuns.map((m, i) => m.wallMs / bareRuns[i]!.wallMs));
  const label = runs > 1 ? `median of ${runs}` : 'single run';
  console.log('');
  console.log(`records: ${count}   site pages: ${pages}   site output: ${mb(siteSize / 1024)}`);
  console.log(`site  astro build   ${ms(siteMs).padStart(9)}   peak ${mb(Math.max(...siteRuns.map((m) => m.peakKb)))}   (${label})`);
  console.log(`bare  astro build   ${ms(bareMs).padStart(9)}   peak ${mb(Math.max(...bareRuns.map((m) => m.peakKb)))}   (${count} trivial pages, ${label})`);
  console.log(
    `ratio site/bare: ${ratio.toFixed(2)} × (the whole site, search index included${runs > 1 ? '; median of the per-run ratios' : ''})`,
  );
  console.log('(wall times include process start-up; peak memory is the largest of the runs)');
}

