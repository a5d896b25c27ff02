/**
 * `npm run bench:search -- --records N [--bundle-sizes 40000,20000,10000] [--append-runs 3] [--keep]`
 *
 * The search index benchmark (not a timed test): clean index vs. incremental after one appended record, index size
 * and query results, at each bundle size (SEARCH_SHARD_RECORDS, which also sets the tail's unit, FULL / 32: below
 * FULL records, 40000 / 20000 / 10000 measure the tail layout with units of 1250 / 625 / 312). In one run:
 *   1. generates the synthetic archive of N records (scripts/lib/valid-synthetic-archive.ts, invalid files removed);
 *   2. builds the site twice with `astro build`: without the last record ("before") and with it ("after": one record
 *      appended, the next sequence number, as intake appends);
 *   3. for each bundle size (the search page's bundle list rewritten to match, instead of a third site build):
 *      indexes "before" clean (--no-cache), "before" with an empty cache (the first build, which fills it), "after"
 *      with that cache (the append; --append-runs times, each after "before" again: the median), and "after" clean;
 *      checks that the incremental "after" is byte-identical to the clean one; prints wall times, the index's bytes
 *      and files, and query results (scripts/lib/search-queries.ts): for sampled records, the query "Echo <n>" (their
 *      heading) and their 64-digit hex line, each of which should find the record first, and one common phrase
 *      (result counts must agree across bundle sizes); queries run with the search page's ranking (data-ranking) and,
 *      for comparison, with Pagefind's default ranking;
 *   4. from the layout alone (src/core/publish/search-bundles.ts), the pages an append re-indexes (its changed
 *      bundles) over the next FULL appends from N records: the mean, the 99th percentile and the worst case.
 *
 * Everything is written under TMPDIR, which must be on the project's file system (as for bench:build).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timedNode } from './lib/timed-node.ts';
import { parseArgs, promisify } from 'node:util';
import { searchBundleDirs, searchBundleSizes, searchTailUnit } from '../src/core/publish/search-bundles.ts';
import { sha256Hex } from '../src/core/crypto/sha256.ts';
import { generateValidArchive } from './lib/valid-synthetic-archive.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE = join(REPO, 'node_modules/.bin/node');

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '2000' },
    'bundle-sizes': { type: 'string', default: '40000,20000,10000' },
    samples: { type: 'string', default: '12' },
    'append-runs': { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('Usage: npm run bench:search -- [--records N (2000)] [--bundle-sizes A,B,… (40000,20000,10000)] [--samples K (12): records to query] [--append-runs R (3)] [--keep]');
  process.exit(0);
}
const n = Number(values.records);
const sizes = values['bundle-sizes'].split(',').map(Number);
const samples = Number(values.samples);
const appendRuns = Number(values['append-runs']);
if (!Number.isInteger(n) || n < 2 || sizes.some((s) => !Number.isInteger(s) || s < 1) || !Number.isInteger(samples) || samples < 1 || !Number.isInteger(appendRuns) || appendRuns < 1) {
  console.error('bench:search: --records takes an integer of at least 2, --bundle-sizes positive integers, --samples a positive integer');
  process.exit(2);
}
if (statSync(tmpdir()).dev !== statSync(REPO).dev) {
  console.error(`bench:search: set TMPDIR to a folder on the project's file system (Astro moves build files from the project into the output)`);
  process.exit(2);
}

/** A step as a fresh process: its wall time; the end of its output is kept for the caller to read. */
let lastOutput = '';
async function timed(args: string[], env: Record<string, string> = {}): Promise<number> {
  const run = await timedNode('bench:search', args, env);
  lastOutput = run.output;
  return run.ms;
}

/** Rewrites the built search page's bundle list for `perBundle` (what a build with that SEARCH_SHARD_RECORDS writes). */
function setSearchPageBundles(site: string, records: number, perBundle: number): void {
  const path = join(site, 'search', 'index.html');
  const html = readFileSync(path, 'utf8');
  const base = /data-pagefind-url="([^"]*)pagefind\/pagefind\.js"/.exec(html)![1]!;
  const [first, ...more] = searchBundleDirs(records, perBundle).map((d) => `${base}${d}`);
  writeFileSync(
    path,
    html
      .replace(/data-pagefind-url="[^"]*"/, `data-pagefind-url="${first}pagefind.js"`)
      .replace(/data-merge-bundles="[^"]*"/, `data-merge-bundles="${JSON.stringify(more).replaceAll('"', '&quot;')}"`),
  );
}

/** Every file under the site's pagefind folders: path → SHA-256, the total bytes, and bytes per kind of file. */
function searchOutput(site: string): { files: Map<string, string>; bytes: number; kinds: Record<string, number> } {
  const files = new Map<string, string>();
  let bytes = 0;
  const kinds: Record<string, number> = { fragment: 0, index: 0, filter: 0, other: 0 };
  for (const bundle of readdirSync(site).filter((d) => /^pagefind(-\d+)?$/.test(d))) {
    for (const d of readdirSync(join(site, bundle), { recursive: true, withFileTypes: true })) {
      if (!d.isFile()) continue;
      const data = readFileSync(join(d.parentPath, d.name));
      bytes += data.length;
      const kind = /[\\/](fragment|index|filter)$/.exec(d.parentPath)?.[1] ?? 'other';
      kinds[kind] = kinds[kind]! + data.length;
      files.set(join(d.parentPath, d.name).slice(site.length), sha256Hex(data));
    }
  }
  return { files, bytes, kinds };
}

/** Pages of the bundles that change from `before` to `after` (layouts: pages per bundle): those after the common prefix. */
function changedPages(before: number[], after: number[]): number {
  let kept = 0;
  while (kept < after.length && after[kept] === before[kept] && kept < before.length - 1) kept++;
  return after.slice(kept).reduce((a, b) => a + b, 0);
}

/** The pages an append re-indexes (changedPages) for each of the `full` appends from `from` records. */
function appendCosts(from: number, full: number): { mean: number; p99: number; worst: number } {
  const pages = Array.from({ length: full }, (_, i) => changedPages(searchBundleSizes(from + i, full), searchBundleSizes(from + i + 1, full))).sort((a, b) => a - b);
  return { mean: pages.reduce((a, b) => a + b, 0) / full, p99: pages[Math.floor(full * 0.99)]!, worst: pages.at(-1)! };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const sameOutput = (a: Map<string, string>, b: Map<string, string>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
const s = (t: number) => `${(t / 1000).toFixed(1)} s`;

const base = mkdtempSync(join(tmpdir(), 'echo-bench-search-'));
try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; load average ${load()}; working folder ${base}`);
  const records = join(base, 'records');
  const gen = await generateValidArchive(records, n);
  console.log(`generated ${gen.files} records, removed ${gen.removed} deliberately invalid: ${gen.valid} records`);

  // The appended record: the one with the highest sequence number (the generator's last valid one).
  const files = readdirSync(records, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).sort();
  const last = files.at(-1)!;
  const aside = join(base, 'appended.json');
  renameSync(join(records, last), aside);
  const before = join(base, 'before');
  const after = join(base, 'after');
  const astro = (out: string) => timed([join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', out], { RECORDS_DIR: records });
  await timed([join(REPO, 'scripts/build-builder.ts')]);
  console.log(`astro build, before the append (${gen.valid - 1} records): ${s(await astro(before))}`);
  renameSync(aside, join(records, last));
  console.log(`astro build, after the append (${gen.valid} records): ${s(await astro(after))}`);

  // Queries: for sampled records, their heading and their hex line; and one phrase common to many records.
  const picks = Array.from({ length: samples }, (_, i) => files[Math.floor(((i + 0.5) * files.length) / samples)]!);
  const sampled = picks.map((f) => {
    const seq = Number(/-(\d{6})\.json$/.exec(f)![1]);
    return { id: f.slice(f.lastIndexOf('/') + 1, -'.json'.length), queries: [`Echo ${seq}`, seq.toString(16).padStart(64, '0')] };
  });
  const common = 'registry hashes';
  const queries = [...sampled.flatMap((p) => p.queries), common];

  const search = (site: string, args: string[], cache: string, perBundle: number) =>
    timed([join(REPO, 'scripts/build-search.ts'), '--site', site, '--cache-dir', cache, ...args], { SEARCH_SHARD_RECORDS: String(perBundle) });
  const rows: string[] = [];
  for (const perBundle of sizes) {
    setSearchPageBundles(before, gen.valid - 1, perBundle);
    setSearchPageBundles(after, gen.valid, perBundle);
    const cache = join(base, `cache-${perBundle}`);
    const clean = await search(before, ['--no-cache'], cache, perBundle);
    const first = await search(before, [], cache, perBundle);
    // The append, appendRuns times (each after building "before" again with the cache): the median wall time.
    const appends: number[] = [];
    let reindexed: RegExpExecArray | null = null;
    for (let run = 0; run < appendRuns; run++) {
      if (run > 0) await search(before, [], cache, perBundle);
      appends.push(await search(after, [], cache, perBundle));
      reindexed = /\((\d+) from the cache, (\d+) indexed\)/.exec(lastOutput);
    }
    const append = median(appends);
    const incremental = searchOutput(after);
    const cleanAfter = await search(after, ['--no-cache'], cache, perBundle);
    const reference = searchOutput(after);
    const identical = sameOutput(incremental.files, reference.files);

    type QueryResult = { loadBytes: number; queries: { q: string; results: number; top: string | null; bytes: number; ms: number }[] };
    const runQueries = async (extra: string[]) => {
      const { stdout } = await promisify(execFile)(NODE, [join(REPO, 'scripts/lib/search-queries.ts'), '--site', after, '--queries', JSON.stringify(queries), ...extra], { maxBuffer: 1 << 24 });
      const result = JSON.parse(stdout) as QueryResult;
      const byQuery = new Map(result.queries.map((r) => [r.q, r]));
      let topHits = 0;
      const misses: string[] = [];
      for (const p of sampled) {
        for (const q of p.queries) {
          const r = byQuery.get(q)!;
          if (r.top?.includes(`/records/${p.id}/`)) topHits++;
          else misses.push(`"${q}" (${p.id}): first ${r.top ?? 'nothing'} of ${r.results}`);
        }
      }
      return { result, byQuery, topHits, misses };
    };
    // As the search page ranks (its data-ranking), and with Pagefind's default ranking for comparison.
    const { result, byQuery, topHits, misses } = await runQueries([]);
    const plain = await runQueries(['--ranking', '{}']);
    // Pagefind loads lazily: what the first search downloads includes loading; later ones fetch index chunks only.
    const firstQuery = result.loadBytes + result.queries[0]!.bytes;
    const later = result.queries.slice(1);
    const perLaterQuery = later.reduce((t, r) => t + r.bytes, 0) / Math.max(1, later.length);
    const layout = searchBundleSizes(gen.valid, perBundle);
    const appendPages = changedPages(searchBundleSizes(gen.valid - 1, perBundle), layout);
    const cost = appendCosts(gen.valid, perBundle);
    const line =
      `| ${perBundle.toLocaleString('en')} | ${searchTailUnit(perBundle).toLocaleString('en')} | ${layout.length}: ${layout.map((p) => p.toLocaleString('en')).join(' + ')} | ${s(clean)} | ${s(first)} | ` +
      `${s(append)} (median of ${appends.map(s).join(', ')}; ${reindexed?.[2] ?? '?'} re-indexed, ${appendPages.toLocaleString('en')} pages) | ${s(cleanAfter)} | ` +
      `${identical ? 'yes' : '**NO**'} | ${(reference.bytes / 1e6).toFixed(1)} MB, ${reference.files.size} files | ${(firstQuery / 1e3).toFixed(0)} KB | ` +
      `${(perLaterQuery / 1e3).toFixed(0)} KB | ${topHits} / ${sampled.length * 2} (Pagefind's default ranking: ${plain.topHits}) | ${byQuery.get(common)!.results} | ` +
      `${cost.mean.toFixed(0)} / ${cost.p99.toLocaleString('en')} / ${cost.worst.toLocaleString('en')} |`;
    console.log(line);
    const mbOf = (k: string) => `${k} ${(reference.kinds[k]! / 1e6).toFixed(1)} MB`;
    console.log(`  index size by kind: ${['fragment', 'index', 'filter', 'other'].map(mbOf).join(', ')} (other: pagefind.js, WebAssembly, UI files, metadata)`);
    for (const miss of misses) console.log(`  not the top hit: ${miss}`);
    for (const miss of plain.misses) console.log(`  not the top hit with Pagefind's default ranking: ${miss}`);
    rows.push(line);
  }
  console.log(`\n${gen.valid} records (${gen.valid - 1} before the append); times are wall clock, one run each but the append (median of ${appendRuns}); load average at the end ${load()}.`);
  console.log(
    '| records per full bundle | tail unit | bundles (pages) | clean index (before) | first build with an empty cache | after appending one record, with the cache | clean index (after) | incremental = clean, byte for byte | index size | downloaded by the first search | by each later search | top hit right (the page ranking) | results for "registry hashes" | pages an append re-indexes over the next FULL appends: mean / 99th percentile / worst |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
} finally {
  if (values.keep) console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
