/**
 * `node scripts/bench-validation-cache.ts --records N [--runs R] [--dir DIR]`
 *
 * What the validation cache saves the site build (src/site/build/cache/validation-cache.ts), not a timed test. Generates
 * the valid synthetic archive of N records (scripts/lib/valid-synthetic-archive.ts) and times the site build's
 * validation step (readSiteArchive: read, validate and keep every record), each time in a fresh process, R times each, in turn:
 *   none — without the cache (ECHO_ARCHIVE_NO_CACHE=1);
 *   cold — with an empty cache (every file judged, the cache file written);
 *   warm — with the cache the cold run left (every verdict reused, the file read, checked and written again);
 *   one  — warm after one record changed (one file judged);
 * and, apart, what the cache file itself costs at N and at 100,000 verdicts: opening it (read, hash check, split),
 * asking every verdict, writing it again, and its size. Run with `node --expose-gc` to collect garbage between runs.
 * Everything goes under TMPDIR (the cache too, through ECHO_ARCHIVE_CACHE_DIR): use TMPDIR=/dev/shm to keep the disk out.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listArchiveFiles } from '../src/core/archive/list-files.ts';
import { sha256Hex } from '../src/core/crypto/sha256.ts';
import { CACHE_DIR_ENV, NO_CACHE_ENV } from '../src/core/publish/build-cache.ts';
import { readSiteArchive } from '../src/site/build/2-read-archive.ts';
import { openValidationCache } from '../src/site/build/cache/validation-cache.ts';
import { generateValidArchive } from './lib/valid-synthetic-archive.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    dir: { type: 'string' },
    // Internal: one timed readSiteArchive of --dir in this (fresh) process, printed as JSON.
    child: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('Usage: node scripts/bench-validation-cache.ts [--records N (10000)] [--runs R (3)] [--dir DIR (temporary)]');
  process.exit(0);
}
const n = Number(values.records);
const runs = Number(values.runs);
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(runs) || runs < 1) {
  console.error('bench-validation-cache: --records and --runs take positive integers');
  process.exit(2);
}

const quiet = { info: () => undefined, warn: () => undefined };

if (values.child) {
  // The whole step as a build pays it, in a fresh process: opening the cache (and the code fingerprint) included.
  const cpu = process.cpuUsage();
  const start = performance.now();
  await readSiteArchive(values.dir!, quiet, { repo: REPO });
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000 }));
  process.exit(0);
}

const base = values.dir ?? mkdtempSync(join(tmpdir(), 'echo-bench-vcache-'));
const root = join(base, 'records');
const t0 = performance.now();
const gen = await generateValidArchive(root, n);
console.log(`generated ${gen.valid} valid records (${(gen.bytes / 1e6).toFixed(1)} MB) in ${ms(performance.now() - t0)} under ${root}`);

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Wall and CPU time (user + system; it moves less when the machine is busy) of one readSiteArchive in a fresh
 * process: a build is one, and a long-lived process would carry the heap of the runs before.
 */
async function timed(env: Record<string, string | undefined>): Promise<{ wall: number; cpu: number }> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [k, v] of Object.entries(childEnv)) if (v === undefined) delete childEnv[k];
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', '--dir', root], { env: childEnv as NodeJS.ProcessEnv, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { wall: number; cpu: number };
}

type Timing = Awaited<ReturnType<typeof timed>>;
const times: Record<'none' | 'cold' | 'warm' | 'one', Timing[]> = { none: [], cold: [], warm: [], one: [] };
const someRecord = join(root, listArchiveFiles(root).find((p) => p.endsWith('.json'))!);
for (let run = 1; run <= runs; run++) {
  const withCache = { [CACHE_DIR_ENV]: join(base, `cache-${run}`), [NO_CACHE_ENV]: undefined };
  times.none.push(await timed({ [NO_CACHE_ENV]: '1' }));
  times.cold.push(await timed(withCache));
  times.warm.push(await timed(withCache));
  // One record changed (a space appended: still valid, other bytes), then put back.
  const bytes = readFileSync(someRecord);
  writeFileSync(someRecord, Buffer.concat([bytes, Buffer.from(' ')]));
  times.one.push(await timed(withCache));
  writeFileSync(someRecord, bytes);
  rmSync(withCache[CACHE_DIR_ENV], { recursive: true, force: true });
  const t = (k: keyof typeof times) => `${ms(times[k].at(-1)!.wall)} (cpu ${ms(times[k].at(-1)!.cpu)})`;
  console.log(`run ${run}: none ${t('none')}, cold ${t('cold')}, warm ${t('warm')}, one changed ${t('one')}; warm/none ${ratio(times.warm.at(-1)!.wall, times.none.at(-1)!.wall)}`);
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const of = (k: keyof typeof times, m: keyof Timing) => times[k].map((x) => x[m]);
const ratios = (k: keyof typeof times, m: keyof Timing) => med(times[k].map((x, i) => x[m] / times.none[i]![m])).toFixed(2);
console.log(`\n${gen.valid} records, ${runs} run${runs === 1 ? '' : 's'}, medians of readSiteArchive (read, validate, keep each record), wall (cpu):`);
for (const k of ['none', 'cold', 'warm', 'one'] as const) {
  const label = { none: 'without cache', cold: 'cold (empty cache)', warm: 'warm', one: 'one record changed' }[k];
  console.log(`  ${label.padEnd(20)} ${ms(med(of(k, 'wall')))} (${ms(med(of(k, 'cpu')))})` + (k === 'none' ? '' : `   ${ratios(k, 'wall')} × without (cpu ${ratios(k, 'cpu')} ×), median of per-run ratios`));
}
if (!values.dir) rmSync(base, { recursive: true, force: true });

// The cache file alone at this size and at 100,000 entries (no archive needed): verdicts as most files have them
// (no diagnostics, nothing looked up), 1 in 100 with a diagnostic and 1 in 50 with a linked report.
for (const entries of [...new Set([gen.valid, 100_000])]) {
  const dir = mkdtempSync(join(tmpdir(), 'echo-bench-vcache-file-'));
  const store = openValidationCache(dir, sha256Hex('code'));
  // Paths and hashes made beforehand, as the validator has them (one string each), so that only the cache is timed.
  const paths = Array.from({ length: entries }, (_, i) => `${2026 + Math.floor(i / 36_500)}/echo-2026-01-01-${String(i).padStart(6, '0')}.json`);
  const shas = paths.map((p) => sha256Hex(p));
  for (let i = 0; i < entries; i++) {
    const path = paths[i]!;
    const sha = shas[i]!;
    const diagnostics = i % 100 === 0 ? [{ rule: 'cross/c0-assessment', severity: 'warning' as const, message: 'a message of some length '.repeat(4), hint: 'a hint '.repeat(10), pointer: '/assessment_state', line: 12, column: 3 }] : [];
    store.put(path, sha, { diagnostics, lookedUp: i % 50 === 0 ? [[`reports/r-${i}.json`, sha]] : [] });
  }
  const cost = { open: [] as number[], get: [] as number[], save: [] as number[] };
  for (let run = 0; run < Math.max(runs, 3); run++) {
    gc?.();
    let start = performance.now();
    if (run === 0) store.save();
    const opened = openValidationCache(dir, sha256Hex('code'));
    cost.open.push(performance.now() - start);
    start = performance.now();
    for (let i = 0; i < entries; i++) opened.get(paths[i]!, shas[i]!);
    cost.get.push(performance.now() - start);
    start = performance.now();
    opened.save();
    cost.save.push(performance.now() - start);
  }
  const size = statSync(join(dir, 'verdicts.txt')).size;
  rmSync(dir, { recursive: true, force: true });
  console.log(`cache file of ${entries} verdicts (${(size / 1e6).toFixed(1)} MB): open ${ms(med(cost.open))}, every verdict asked ${ms(med(cost.get))}, written again ${ms(med(cost.save))} (medians)`);
}

function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)} ×`;
}

function ms(x: number): string {
  return x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`;
}
