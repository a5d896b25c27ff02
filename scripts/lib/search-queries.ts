/**
 * Runs searches against a built site's Pagefind index in Node, the way the search page does in a browser
 * (src/site/client/search.ts: load /pagefind/pagefind.js with the page's ranking, merge the other bundles with it,
 * search), for bench:search.
 *
 *   node scripts/lib/search-queries.ts --site DIR --queries '["q1", "q2"]' [--ranking JSON: instead of the page's] [--correct]
 *
 * --correct: as the search page does for a misspelt word (src/site/client/did-you-mean.ts), also the corrected query
 * and its number of results (`corrected`, `correctedResults`; null when the query needs no correction).
 *
 * Prints JSON: per query the number of results, the first result's URL, and the bytes the search fetched (index
 * files a browser would download for it, after those of loading). Pagefind's pagefind.js fetches its files by URL;
 * here fetch reads them from the site folder.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { correctedQuery, type PagefindLike } from '../../src/site/client/did-you-mean.ts';

interface PagefindApi {
  options(o: Record<string, unknown>): Promise<void>;
  mergeIndex(url: string, o?: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(q: string): Promise<{ results: { data(): Promise<{ url: string; content?: string }> }[] }>;
}

const { values } = parseArgs({ options: { site: { type: 'string' }, queries: { type: 'string' }, ranking: { type: 'string' }, correct: { type: 'boolean' } } });
const site = values.site!;
const queries = JSON.parse(values.queries ?? '[]') as string[];

let fetched = 0;
globalThis.fetch = (async (input: string | URL) => {
  const url = String(input);
  const path = url.startsWith('file:') ? fileURLToPath(url.split('?')[0]!) : join(site, new URL(url, 'http://site').pathname);
  const bytes = await readFile(path);
  fetched += bytes.length;
  return new Response(bytes);
}) as typeof fetch;

const page = await readFile(join(site, 'search', 'index.html'), 'utf8');
const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(page)![1]!.replaceAll('&quot;', '"').replaceAll('&#34;', '"');
const first = attr('data-pagefind-url').replace(/pagefind\.js$/, '');
const pf = (await import(pathToFileURL(join(site, first, 'pagefind.js')).href)) as PagefindApi;
const ranking = JSON.parse(values.ranking ?? (/data-ranking=/.test(page) ? attr('data-ranking') : '{}')) as Record<string, number>;
await pf.options({ basePath: first, baseUrl: '/', ranking });
for (const url of JSON.parse(attr('data-merge-bundles')) as string[]) await pf.mergeIndex(url, { baseUrl: '/', ranking });
await pf.init();
const loadBytes = fetched;
const out = [];
for (const q of queries) {
  fetched = 0;
  const started = performance.now();
  const search = await pf.search(q);
  const top = search.results[0] ? (await search.results[0].data()).url : null;
  const ms = performance.now() - started;
  const corrected = values.correct ? ((await correctedQuery(pf as PagefindLike, q)) ?? null) : undefined;
  const correctedResults = corrected ? (await pf.search(corrected)).results.length : corrected === null ? null : undefined;
  out.push({ q, results: search.results.length, top, bytes: fetched, ms, ...(values.correct ? { corrected, correctedResults } : {}) });
}
console.log(JSON.stringify({ loadBytes, queries: out }));
