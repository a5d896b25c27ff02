/**
 * `npm run bench:search -- [--records N (10000)] [--site DIR] [--queries FILE] [--samples K (24)] [--keep]`
 *
 * The search index benchmark (src/core/search; not a timed test). In one run:
 *   1. generates the synthetic archive of N records (scripts/lib/valid-synthetic-archive.ts, invalid files removed)
 *      and builds the site with `astro build`, which writes the index; prints
 *      the build's wall time and the index step's own time (the build's line "Wrote the search index: … (T ms)"), and
 *      the index's files and bytes under /search-index/ by kind (index.json, terms/, filters/, documents/). With
 *      --site, a site already built instead (its index as it is; no build is timed);
 *   2. appends one record (the newest record's content under the next sequence number, dated 2026-12-31, with its
 *      own words, as bench:build appends) and builds the site again with `astro build`, with the build cache the first
 *      build filled (under the working folder, not the project's): its wall time and index step; then compares the
 *      two indexes file by file. An append may change (or add) only index.json, the last documents file, the terms
 *      files of the new record's words and the files of its filter values (format.ts); any other file that changed
 *      is listed. With --site, the same in memory: the index's documents are read back from its own files, indexed
 *      again with buildSearchIndex (which must give the site's bytes), then with one document appended;
 *   3. runs a query set with scripts/lib/search-queries.ts (the reader the search page runs, on the files on disk):
 *      first, in one opened index, for K records spread evenly over the archive (the sorted ids, index
 *      floor((i + 0.5) × records / K)) their heading "Echo <n>" and their 64-digit hex line, each of which should
 *      find that record first, then common word queries (COMMON_QUERIES); then, on a freshly opened index, misspelt
 *      words (one letter dropped, swapped or changed after the third, cycling; words of the word queries of 5+
 *      letters, the misspelling not itself a word of the index), which should be corrected to the word meant. With
 *      --queries FILE, that set instead: JSON { records: [{ id, url, heading, hex }], words: [{ q }],
 *      misspelt: [{ q, intended }] } (the shape docs/performance.md's comparison with Pagefind used);
 *   4. prints what the first search downloads (index.json and the first query's files, its ten result documents
 *      included) against the 100 kB target, each later query's bytes (median, max), the records found first for
 *      their heading and for their hex line, the result count of each word query, which misspellings were corrected
 *      to the word meant, and the median and 95th percentile of the query times (each query and its ten documents,
 *      read from disk and decompressed in this process).
 * The default queries assume the synthetic archive (its headings, hex lines and sentences).
 *
 * Everything is written under TMPDIR, which must be on the project's file system (Astro moves build files from the
 * project into the output); the working folder is removed at the end unless --keep.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { highestSequence, recordPathFor, sequenceOf } from '../src/core/archive/paths.ts';
import { buildSearchIndex, indexedDocument, termCounts } from '../src/core/search/build-index.ts';
import { documentsPath, filterDocuments, filterPath, SEARCH_INDEX_DIR, shardKeyOf, termShardPath, type DocumentsFile, type FilterFile, type SearchDocumentInput, type SearchIndexManifest, type TermShardFile } from '../src/core/search/format.ts';
import { runQueries, type QueryResult } from './lib/search-queries.ts';
import { timedNode } from './lib/timed-node.ts';
import { generateValidArchive } from './lib/valid-synthetic-archive.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ASTRO = join(REPO, 'node_modules/astro/bin/astro.mjs');

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    site: { type: 'string' },
    queries: { type: 'string' },
    samples: { type: 'string', default: '24' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    'Usage: npm run bench:search -- [--records N (10000)] [--site DIR: a built site instead of generating one] ' +
      '[--queries FILE: a query set JSON { records, words, misspelt }, as the header says] [--samples K (24): records queried by heading and hex line] [--keep]',
  );
  process.exit(0);
}
const n = Number(values.records);
const samples = Number(values.samples);
if (!Number.isInteger(n) || n < 10 || !Number.isInteger(samples) || samples < 1) {
  console.error('bench:search: --records takes an integer of at least 10, --samples a positive integer');
  process.exit(2);
}
if (!values.site && statSync(tmpdir()).dev !== statSync(REPO).dev) {
  console.error(`bench:search: set TMPDIR to a folder on the project's file system (Astro moves build files from the project into the output)`);
  process.exit(2);
}

/** Common words of the synthetic archive's sentences. */
const COMMON_QUERIES = [
  'registry hashes',
  'orientation',
  'uncertainties',
  'endorsement',
  'originals',
  'inscribed records',
  'mirror archive',
  'orientation only',
  'limits checked',
  'claimed below',
  'non-amending',
  'authority endorsement verification',
  'followed the hashes',
  'what I understood',
  'sha256',
  'section 6',
  'section 7',
  'контрольную сумму',
  'المحفوظات',
  '登记册',
];
const TYPOS = 12;

interface QuerySet {
  records: { id: string; url: string; heading: string; hex: string }[];
  words: { q: string }[];
  misspelt: { q: string; intended: string }[];
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const kb = (b: number) => `${(b / 1e3).toFixed(1)} kB`;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))]!;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** Every file under the site's search-index/: path → bytes. */
function indexFiles(site: string): Map<string, Buffer> {
  const root = join(site, SEARCH_INDEX_DIR);
  const files = new Map<string, Buffer>();
  for (const d of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (d.isFile()) files.set(join(d.parentPath, d.name).slice(root.length + 1).split(sep).join('/'), readFileSync(join(d.parentPath, d.name)));
  }
  return files;
}

const KINDS = ['index.json', 'terms', 'filters', 'documents'] as const;
/** A file's kind by its folder: a segment's files (segments/<start>/terms/…) count under terms or filters. */
const kindOf = (path: string) => {
  const inSegment = path.replace(/^segments\/\d+\//, '');
  return path === 'index.json' ? 'index.json' : (KINDS.find((k) => inSegment.startsWith(`${k}/`)) ?? 'other');
};

function describeSize(files: Map<string, Buffer>): string {
  const by = new Map<string, { files: number; bytes: number }>();
  let bytes = 0;
  for (const [path, data] of files) {
    const k = by.get(kindOf(path)) ?? { files: 0, bytes: 0 };
    k.files++;
    k.bytes += data.length;
    by.set(kindOf(path), k);
    bytes += data.length;
  }
  const parts = [...KINDS, 'other'].filter((k) => by.has(k)).map((k) => `${k} ${by.get(k)!.files.toLocaleString('en')} files, ${(by.get(k)!.bytes / 1e6).toFixed(2)} MB`);
  return `${files.size.toLocaleString('en')} files, ${(bytes / 1e6).toFixed(2)} MB (${parts.join('; ')})`;
}

const json = <T>(data: Buffer): T => JSON.parse((data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data).toString('utf8')) as T;

/** The documents of an index as it was built from them: documents files in order, filters from the filters' files. */
function documentsOf(files: Map<string, Buffer>): SearchDocumentInput[] {
  const manifest = json<SearchIndexManifest>(files.get('index.json')!);
  const docs: SearchDocumentInput[] = [];
  for (let o = 0; o < manifest.documents; o += manifest.documentsPerFile) {
    for (const d of json<DocumentsFile>(files.get(documentsPath(o, manifest))!).documents) docs.push({ ...d, filters: {} });
  }
  for (const segment of manifest.segments) {
    for (const [facet, valuesOf] of Object.entries(segment.filters)) {
      for (const v of valuesOf) {
        const file = files.get(filterPath(segment.start, facet, v.value))!;
        for (const o of filterDocuments(json<FilterFile>(file).documents)) (docs[o]!.filters as Record<string, string>)[facet] = v.value;
      }
    }
  }
  return docs;
}

/**
 * What an append changed, from the index before to the index after: the files that differ (or are new, or gone), and
 * those of them an append may not change: all but index.json, the new document's documents file, the terms files of
 * its words and its filter values' files in its segment (the last). An append that fills a block merges segments
 * (src/core/search/segments.ts): then every file of the merged segments may change, and the report says so.
 */
function compareAppend(before: Map<string, Buffer>, after: Map<string, Buffer>): { changed: string[]; unexpected: string[]; expected: Set<string> } {
  const docs = documentsOf(after);
  const added = docs.at(-1)!;
  const manifest = json<SearchIndexManifest>(after.get('index.json')!);
  const expected = new Set(['index.json', documentsPath(docs.length - 1, manifest)]);
  const last = manifest.segments.at(-1)!.start;
  for (const [term] of termCounts(indexedDocument(added))) expected.add(termShardPath(last, shardKeyOf(term, manifest)));
  for (const [facet, value] of Object.entries(added.filters)) expected.add(filterPath(last, facet, value));
  const changed = [...new Set([...before.keys(), ...after.keys()])].filter((p) => !(before.get(p) && after.get(p)?.equals(before.get(p)!))).sort();
  return { changed, unexpected: changed.filter((p) => !expected.has(p)), expected };
}

function reportAppend(label: string, before: Map<string, Buffer>, after: Map<string, Buffer>): void {
  const { changed, unexpected, expected } = compareAppend(before, after);
  const by = (paths: string[]) => KINDS.map((k) => `${paths.filter((p) => kindOf(p) === k).length} ${k === 'index.json' ? k : `${k}/`}`).join(', ');
  console.log(`${label}: ${changed.length} of ${after.size.toLocaleString('en')} index files changed or added (${by(changed)}); the append may change ${expected.size} (${by([...expected])})`);
  if (unexpected.length === 0) console.log('  only the files an append may change: yes');
  else console.log(`  **${unexpected.length} other files changed**: ${unexpected.slice(0, 20).join(', ')}${unexpected.length > 20 ? ', …' : ''}`);
}

/** Appends a record as intake would (as bench:build does): the newest record's content under the next sequence number, with its own words. */
function appendRecord(root: string): string {
  const files = (readdirSync(root, { recursive: true }) as string[]).map((p) => p.split(sep).join('/')).filter((p) => sequenceOf(p) !== undefined);
  files.sort((a, b) => sequenceOf(a)! - sequenceOf(b)!);
  const seq = highestSequence(files) + 1;
  const record = JSON.parse(readFileSync(join(root, files.at(-1)!), 'utf8')) as Record<string, unknown>;
  record.understanding_summary = `An appended record, number ${seq}: ${String(record.understanding_summary)}`;
  const path = recordPathFor('2026-12-31', seq);
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), JSON.stringify(record, null, 2) + '\n');
  return path;
}

/** The default query set: sampled records' heading and hex line, COMMON_QUERIES, misspellings of their words. */
function defaultQueries(site: string, index: Map<string, Buffer>): QuerySet {
  const ids = readdirSync(join(site, 'records'), { withFileTypes: true }).filter((d) => d.isFile() && d.name.endsWith('.json')).map((d) => d.name.slice(0, -'.json'.length)).sort();
  const picks = Array.from({ length: Math.min(samples, ids.length) }, (_, i) => ids[Math.floor(((i + 0.5) * ids.length) / Math.min(samples, ids.length))]!);
  const records = picks.map((id) => {
    const seq = sequenceOf(`${id}.json`) ?? 0;
    return { id, url: `/records/${id}/`, heading: `Echo ${seq}`, hex: seq.toString(16).padStart(64, '0') };
  });
  const layout = json<SearchIndexManifest>(index.get('index.json')!);
  const isTerm = (w: string) =>
    layout.segments.some((s) => {
      const shard = index.get(termShardPath(s.start, shardKeyOf(w, layout)));
      return shard !== undefined && json<TermShardFile>(shard).terms.includes(w);
    });
  // Words of 5+ letters of the word queries, each misspelt once: drop, swap, change in turn, after the third letter.
  const words = [...new Set(COMMON_QUERIES.flatMap((q) => q.toLowerCase().match(/[a-z]+/g) ?? []))].filter((w) => w.length >= 5 && isTerm(w));
  const misspelt: QuerySet['misspelt'] = [];
  const edits = ['drop', 'swap', 'change'] as const;
  for (const [i, w] of words.entries()) {
    if (misspelt.length === TYPOS) break;
    const edit = edits[misspelt.length % 3]!;
    // Positions 3 … (0-based, so the first three letters stay), from one that depends on the word's place.
    for (let k = 0; k < w.length - 3; k++) {
      const p = 3 + ((i + k) % (w.length - 3));
      const q =
        edit === 'drop' ? w.slice(0, p) + w.slice(p + 1)
        : edit === 'swap' ? (p + 1 < w.length ? w.slice(0, p) + w[p + 1] + w[p] + w.slice(p + 2) : w)
        : w.slice(0, p) + (w[p] === 'z' ? 'a' : String.fromCharCode(w.charCodeAt(p) + 1)) + w.slice(p + 1);
      if (q !== w && !isTerm(q)) {
        misspelt.push({ q, intended: w });
        break;
      }
    }
  }
  return { records, words: COMMON_QUERIES.map((q) => ({ q })), misspelt };
}

const base = mkdtempSync(join(tmpdir(), 'echo-bench-search-'));
try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; load average ${load()}; working folder ${base}`);
  let site: string;
  if (values.site) {
    site = resolve(values.site);
    console.log(`site ${site} (as built)`);
  } else {
    // 1. The archive and its site. The build cache is the working folder's: the project's stays as it is.
    const records = join(base, 'records');
    const env = { RECORDS_DIR: records, ECHO_ARCHIVE_CACHE_DIR: join(base, 'cache') };
    const gen = await generateValidArchive(records, n);
    console.log(`generated ${gen.files} records, removed ${gen.removed} deliberately invalid: ${gen.valid} records`);
    site = join(base, 'site');
    const astro = async (out: string, what: string) => {
      const run = await timedNode('bench:search', [ASTRO, 'build', '--outDir', out], env);
      const line = /Wrote the search index: (\d+) records in (\d+) files \((\d+) changed(?:, \d+ from the cache; segments: (\d+ kept, \d+ made))?, (\d+) ms\)/.exec(run.output);
      const pages = /Rendered \d+ record pages?( \([^)]*\))?/.exec(run.output)?.[0] ?? '';
      if (!line) throw new Error(`bench:search: the build wrote no search index line:\n${run.output}`);
      const segments = line[4] === undefined ? '' : `; segments ${line[4]}`;
      console.log(`astro build, ${what}: ${s(run.ms)} (${pages}); the index step: ${Number(line[5]).toLocaleString('en')} ms, ${line[1]} records in ${line[2]} files (${line[3]} written${segments})`);
    };
    await astro(site, `${gen.valid} records, empty build cache`);
    console.log(`index size: ${describeSize(indexFiles(site))}`);

    // 2. One record appended: the build again, with the cache the first build filled.
    const appended = appendRecord(records);
    const after = join(base, 'after');
    await astro(after, `after appending ${appended} (with that cache)`);
    reportAppend('the append', indexFiles(site), indexFiles(after));
  }
  const index = indexFiles(site);
  if (values.site) {
    console.log(`index size: ${describeSize(index)}`);
    // 2, in memory: the site's documents indexed again (the same bytes), then with one more.
    const docs = documentsOf(index);
    let started = performance.now();
    const rebuilt = buildSearchIndex(docs.map(indexedDocument));
    const ms = performance.now() - started;
    const same = rebuilt.size === index.size && [...index].every(([p, b]) => rebuilt.get(p)?.equals(b));
    console.log(`buildSearchIndex on the site's ${docs.length} documents, read back from its index: ${ms.toFixed(0)} ms; the site's bytes exactly: ${same ? 'yes' : '**NO**'}`);
    const last = docs.at(-1)!;
    const seq = highestSequence(docs.map((d) => `${d.id}.json`)) + 1;
    const id = recordPathFor('2026-12-31', seq).split('/')[1]!.slice(0, -'.json'.length);
    started = performance.now();
    const after = buildSearchIndex([...docs, { ...last, id, page: `records/${id}/`, date: '2026-12-31', text: `An appended record, number ${seq}: ${last.text}` }].map(indexedDocument));
    console.log(`buildSearchIndex with one document appended (${id}): ${(performance.now() - started).toFixed(0)} ms`);
    reportAppend('the append (in memory)', index, after);
  }

  // 3. The queries.
  const set: QuerySet = values.queries ? (JSON.parse(readFileSync(values.queries, 'utf8')) as QuerySet) : defaultQueries(site, index);
  const first = await runQueries(site, [...set.records.flatMap((r) => [r.heading, r.hex]), ...set.words.map((w) => w.q)]);
  const typos = await runQueries(site, set.misspelt.map((m) => m.q));
  const byQuery = new Map<string, QueryResult>(first.queries.map((r) => [r.q, r]));
  const all = [...first.queries, ...typos.queries];

  // 4. The figures.
  console.log(`\nqueries: ${set.records.length} records × (heading, hex line), ${set.words.length} word queries, ${set.misspelt.length} misspellings${values.queries ? ` (${values.queries})` : ''}`);
  const q0 = first.queries[0]!;
  const firstBytes = first.loadBytes + q0.bytes;
  console.log(`first search ("${q0.q}"): ${kb(firstBytes)} = index.json ${kb(first.loadBytes)} + ${kb(q0.bytes)} (its ten result documents included); target 100 kB: ${firstBytes <= 100_000 ? 'met' : '**over**'}`);
  const later = all.slice(1).map((r) => r.bytes);
  const largest = all.slice(1).find((r) => r.bytes === Math.max(...later))!.q;
  console.log(`each later query: median ${kb(pct(later, 50))}, max ${kb(Math.max(...later))} ("${largest.length > 40 ? `${largest.slice(0, 40)}…` : largest}")`);
  for (const kind of ['heading', 'hex'] as const) {
    const misses = set.records.filter((r) => byQuery.get(r[kind])!.top !== r.url);
    console.log(`records found first for their ${kind === 'heading' ? 'heading' : 'hex line'}: ${set.records.length - misses.length} / ${set.records.length}`);
    for (const r of misses) {
      const got = byQuery.get(r[kind])!;
      const rank = got.top10.indexOf(r.url);
      console.log(`  "${r[kind]}" (${r.id}): ${rank < 0 ? 'not in the top 10' : `rank ${rank + 1}`} of ${got.results}; first ${got.top ?? 'nothing'}`);
    }
  }
  console.log('word queries, results:');
  for (const w of set.words) {
    const r = byQuery.get(w.q)!;
    console.log(`  ${w.q}: ${r.results}${r.corrected ? ` (searched as "${r.corrected}")` : ''}`);
  }
  const right = set.misspelt.filter((m, i) => typos.queries[i]!.corrected === m.intended);
  console.log(`misspellings corrected to the word meant: ${right.length} / ${set.misspelt.length}`);
  for (const [i, m] of set.misspelt.entries()) {
    const r = typos.queries[i]!;
    console.log(`  ${m.q} → ${r.corrected ?? '(not corrected)'}${r.corrected === m.intended ? '' : ` (meant ${m.intended}) **wrong**`}: ${r.results} results, ${r.typedResults ?? r.results} as typed`);
  }
  const times = all.map((r) => r.ms);
  console.log(`query time (search and its ten documents, files read from disk): median ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, over ${times.length} queries; load average at the end ${load()}`);
} finally {
  if (values.keep) console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
