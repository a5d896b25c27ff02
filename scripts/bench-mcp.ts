/**
 * `npm run bench:mcp -- [--records N (10000)] [--queries Q (100)] [--site DIR] [--keep]`
 *
 * The MCP server's search benchmark (issue 25; not a timed test): search_records over a large synthetic site.
 *   1. generates the synthetic archive of N records (scripts/lib/valid-synthetic-archive.ts, invalid files removed)
 *      and builds the site as `npm run build` does (`astro build`, which bundles the builder and writes the search
 *      index under /search-index/, src/core/search/format.ts), afresh: the build cache is neither read nor filled
 *      with the synthetic records (ECHO_ARCHIVE_NO_CACHE); or, with --site, uses a site already built;
 *   2. serves it on 127.0.0.1 (tests/e2e/static-server.ts) and connects the SDK's client to the archive's MCP server
 *      (src/mcp/server.ts, the HTTP transport's tool set) in process, so that a call measures the tool and the
 *      protocol, not a network;
 *   3. the first answer, cold (the server has loaded nothing), twice on fresh servers: for a rare word (one record's
 *      hex line) and for common words ("registry hashes", in nearly every record): wall time, and the bytes and
 *      requests fetched from the site, counted in the site client's fetch (every response from the site's origin: its
 *      content-length, the files as stored, gzip-compressed), by kind of file: index.json, terms files
 *      (segments/<n>/terms/<hex>.json.gz), filter files (segments/<n>/filters/…), documents files
 *      (documents/<n>.json.gz), anything else;
 *   4. once warm: Q distinct queries (sampled records' heading "Echo <n>" and their 64-digit hex line, common words,
 *      and facet filters), each new to the server (so each may fetch its terms, filter and documents files), then
 *      the same Q again (everything cached): wall time per call, the median and the 95th percentile of each pass, the bytes
 *      per call, the slowest new queries, and how often a sampled record's heading finds it first.
 * Targets (issue 25): at 100,000 records, p95 < 100 ms once warm, and a first answer fetching < 1 MB.
 * Everything is written under TMPDIR, which must be on the project's file system (as for bench:search).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timedNode } from './lib/timed-node.ts';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createArchiveMcpServer } from '../src/mcp/server.ts';
import { SiteClient } from '../src/mcp/site-client.ts';
import { serveStatic } from '../tests/e2e/static-server.ts';
import { generateValidArchive } from './lib/valid-synthetic-archive.ts';
import { NO_CACHE_ENV } from '../src/core/publish/build-cache.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '100' },
    site: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('Usage: npm run bench:mcp -- [--records N (10000)] [--queries Q (100)] [--site DIR: a built site instead of generating one] [--keep]');
  process.exit(0);
}
const n = Number(values.records);
const q = Number(values.queries);
if (!Number.isInteger(n) || n < 10 || !Number.isInteger(q) || q < 4) {
  console.error('bench:mcp: --records takes an integer of at least 10, --queries an integer of at least 4');
  process.exit(2);
}
if (!values.site && statSync(tmpdir()).dev !== statSync(REPO).dev) {
  console.error(`bench:mcp: set TMPDIR to a folder on the project's file system (Astro moves build files from the project into the output)`);
  process.exit(2);
}

/** A step as a fresh process: its wall time. */
async function timed(args: string[], env: Record<string, string> = {}): Promise<number> {
  return (await timedNode('bench:mcp', args, env)).ms;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const ms = (t: number) => `${t.toFixed(1)} ms`;
const kb = (b: number) => `${(b / 1e3).toFixed(0)} KB`;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const base = mkdtempSync(join(tmpdir(), 'echo-bench-mcp-'));
try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; node ${process.version}; load average ${load()}; working folder ${base}`);
  let site = values.site ? resolve(values.site) : join(base, 'site');
  let ids: string[];
  if (values.site) {
    ids = readdirSync(join(site, 'records'), { withFileTypes: true }).filter((d) => d.isFile() && d.name.endsWith('.json')).map((d) => d.name.slice(0, -'.json'.length)).sort();
  } else {
    const records = join(base, 'records');
    const gen = await generateValidArchive(records, n);
    console.log(`generated ${gen.files} records, removed ${gen.removed} deliberately invalid: ${gen.valid} records`);
    ids = readdirSync(records, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => f.slice(f.lastIndexOf('/') + 1, -'.json'.length)).sort();
    console.log(`astro build: ${s(await timed([join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', site], { RECORDS_DIR: records, [NO_CACHE_ENV]: '1' }))}`);
  }
  site = resolve(site);

  const server = await serveStatic(site);
  // The bytes the site client fetches: every answer from the site's origin (the search index's files, anything else).
  let fetched = 0;
  let requests = 0;
  const log: Array<[string, number]> = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const res = await realFetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith(server.origin)) {
      requests++;
      const bytes = Number(res.headers.get('content-length') ?? '0');
      fetched += bytes;
      log.push([url.slice(server.origin.length), bytes]);
    }
    return res;
  }) as typeof fetch;

  /** A client of a fresh MCP server (its own site client: nothing loaded, nothing cached). */
  const connect = async () => {
    const mcp = createArchiveMcpServer({ transport: 'http', site: new SiteClient(server.origin), gatewayUrl: 'http://127.0.0.1:9', commands: [], timeoutSeconds: 30, version: 'bench' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const c = new Client({ name: 'bench-mcp', version: '1.0.0' });
    await c.connect(clientSide);
    return c;
  };
  let client = await connect();

  type Answer = { structuredContent?: { total?: number; results?: Array<{ id: string }> }; isError?: boolean };
  const search = async (args: Record<string, unknown>) => {
    const before = fetched;
    const start = performance.now();
    const answer = (await client.callTool({ name: 'search_records', arguments: args })) as Answer;
    const took = performance.now() - start;
    if (answer.isError || !answer.structuredContent) throw new Error(`search_records ${JSON.stringify(args)} failed: ${JSON.stringify(answer)}`);
    return { took, bytes: fetched - before, answer: answer.structuredContent };
  };

  // Queries: sampled records' heading and hex line, common words, and facet filters (with and without words).
  const samples = Math.max(1, Math.floor((q - 4) / 2));
  const picks = Array.from({ length: samples }, (_, i) => ids[Math.floor(((i + 0.5) * ids.length) / samples)]!);
  const headings = picks.map((id) => ({ id, args: { query: `Echo ${Number(id.slice(-6))}` } }));
  const queries: Array<Record<string, unknown>> = [
    ...headings.map((h) => h.args),
    ...picks.map((id) => ({ query: Number(id.slice(-6)).toString(16).padStart(64, '0') })),
    { query: 'registry hashes' },
    { query: 'archive' },
    { filters: { archive_status: 'needs_human_review' } },
    { query: 'registry', filters: { context_depth: 'C2_registry_aware' } },
  ].slice(0, q);

  // What a first answer fetched (the log since it was cleared), by kind of file of the search index (format.ts).
  const kindOf = (url: string) => {
    const path = url.split('?')[0]!;
    const m = /^\/search-index\/(.*)$/.exec(path);
    if (!m) return 'other';
    // A segment's terms and filter files (segments/<first document>/terms/…) count as terms and filter files.
    const file = m[1]!.replace(/^segments\/\d+\//, '');
    return file === 'index.json' ? 'index.json' : file.startsWith('terms/') ? 'terms files' : file.startsWith('filters/') ? 'filter files' : file.startsWith('documents/') ? 'documents files' : 'other';
  };
  const byKind = () => {
    const kinds = new Map<string, { n: number; bytes: number }>();
    for (const [path, bytes] of log) {
      const k = kinds.get(kindOf(path)) ?? { n: 0, bytes: 0 };
      kinds.set(kindOf(path), { n: k.n + 1, bytes: k.bytes + bytes });
    }
    const sizes = (k: string) => log.filter(([p]) => kindOf(p) === k).map(([, b]) => b);
    return [...kinds]
      .sort((x, y) => y[1].bytes - x[1].bytes)
      .map(([k, v]) => `${k} ${kb(v.bytes)} in ${v.n} request${v.n === 1 ? '' : 's'}${v.n > 1 ? ` (largest ${kb(Math.max(...sizes(k)))})` : ''}`)
      .join(', ');
  };

  // The first answer for a rare word (one record's 64-digit hex line), on a fresh server: the least a cold answer fetches.
  const rareWord = Number(ids[Math.floor(ids.length / 2)]!.slice(-6)).toString(16).padStart(64, '0');
  requests = 0;
  log.length = 0;
  const rare = await search({ query: rareWord });
  console.log(`first answer (cold), a rare word (one record's hex line): ${ms(rare.took)}, ${kb(rare.bytes)} fetched from the site in ${requests} requests; ${rare.answer.total} record(s) match`);
  console.log(`  by kind: ${byKind()}`);
  await client.close();
  client = await connect();
  requests = 0;
  log.length = 0;
  const first = await search({ query: 'registry hashes' });
  console.log(`first answer (cold), common words: ${ms(first.took)}, ${kb(first.bytes)} fetched from the site in ${requests} requests; ${first.answer.total} records match "registry hashes"`);
  console.log(`  by kind: ${byKind()}`);


  const pass = async () => {
    const rows = [];
    for (const args of queries) rows.push(await search(args));
    return rows;
  };
  const warm = await pass();
  const again = await pass();
  const hits = headings.filter((h, i) => warm[i]!.answer.results?.[0]?.id === h.id).length;
  const stat = (rows: typeof warm) => {
    const t = rows.map((r) => r.took);
    return { p50: pct(t, 50), p95: pct(t, 95), max: Math.max(...t), bytes: rows.reduce((a, r) => a + r.bytes, 0) / rows.length };
  };
  const w = stat(warm);
  const a = stat(again);
  console.log(`warm, ${warm.length} queries new to the server: median ${ms(w.p50)}, p95 ${ms(w.p95)}, max ${ms(w.max)}; ${kb(w.bytes)} fetched per query`);
  console.log(`warm, the same ${again.length} queries again: median ${ms(a.p50)}, p95 ${ms(a.p95)}, max ${ms(a.max)}; ${kb(a.bytes)} fetched per query`);
  console.log(`a sampled record's heading ("Echo <n>") finds it first: ${hits} / ${headings.length}`);
  const slowest = warm.map((r, i) => ({ r, args: queries[i]! })).sort((x, y) => y.r.took - x.r.took).slice(0, 6);
  console.log(`the slowest new queries: ${slowest.map(({ r, args }) => `${ms(r.took)} ${JSON.stringify(args)} (${r.answer.total} match, ${kb(r.bytes)} fetched)`).join('; ')}`);
  console.log(`\n| records | first answer (cold), a rare word: time / fetched | first answer (cold), common words: time / fetched | warm, new queries: median / p95 / fetched per query | warm, repeated: median / p95 | heading finds the record first |`);
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| ${ids.length.toLocaleString('en')} | ${ms(rare.took)} / ${kb(rare.bytes)} | ${ms(first.took)} / **${kb(first.bytes)}** | ${ms(w.p50)} / **${ms(w.p95)}** / ${kb(w.bytes)} | ${ms(a.p50)} / ${ms(a.p95)} | ${hits} / ${headings.length} |`,
  );
  console.log(`load average at the end ${load()}`);
  await client.close();
  await server.close();
} finally {
  if (values.keep) console.log(`kept ${base}`);
  else rmSync(base, { recursive: true, force: true });
}
