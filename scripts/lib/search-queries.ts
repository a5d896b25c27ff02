/**
 * Runs searches against a built site's search index (src/core/search, /search-index/) in Node, with the reader the
 * search page runs in a browser, for bench:search and the built-site tests.
 *
 *   node scripts/lib/search-queries.ts --site DIR --queries '["q1", "q2"]'
 *
 * Prints JSON: how many bytes opening the index took (`loadBytes`), and per query the number of results, the first
 * result's page ("/records/<id>/"), the first ten, the correction made for a misspelt word (`corrected`: the query
 * searched instead, and `typedResults`, what the words as typed found; null when none), the bytes the search fetched
 * (the index files a browser would download for it, the first ten results' documents included) and its time.
 * Each query runs on the index as the previous queries left it (files fetched once stay), as in one browser tab.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SEARCH_INDEX_DIR } from '../../src/core/search/format.ts';
import { SearchIndex } from '../../src/core/search/search-index.ts';

export interface QueryResult {
  q: string;
  results: number;
  top: string | null;
  top10: string[];
  corrected: string | null;
  typedResults: number | null;
  bytes: number;
  ms: number;
}

export async function runQueries(site: string, queries: readonly string[]): Promise<{ loadBytes: number; queries: QueryResult[] }> {
  let fetched = 0;
  const index = await SearchIndex.open(async (path) => {
    try {
      const bytes = await readFile(join(site, SEARCH_INDEX_DIR, path));
      fetched += bytes.length;
      return bytes;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  });
  const loadBytes = fetched;
  const out: QueryResult[] = [];
  for (const q of queries) {
    fetched = 0;
    const started = performance.now();
    const answer = await index.search(q);
    const docs = await Promise.all([...answer.ranked.subarray(0, 10)].map((o) => index.document(o)));
    const ms = performance.now() - started;
    const top10 = docs.map((d) => `/${d.page}`);
    out.push({ q, results: answer.total, top: top10[0] ?? null, top10, corrected: answer.corrected?.query ?? null, typedResults: answer.corrected?.typedTotal ?? null, bytes: fetched, ms });
  }
  return { loadBytes, queries: out };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { site: { type: 'string' }, queries: { type: 'string' } } });
  if (!values.site) {
    console.error('search-queries: --site DIR (a built site) is required');
    process.exit(2);
  }
  console.log(JSON.stringify(await runQueries(values.site, JSON.parse(values.queries ?? '[]') as string[])));
}
