/**
 * The search index is split into Pagefind bundles of at most SEARCH_SHARD_RECORDS record pages each, because one
 * Pagefind process holds its whole index in memory (about 115 KB per record page: 11.5 GB at 100,000 records). The
 * first bundle is /pagefind/ (the search page loads its pagefind.js), the others /pagefind-2/, /pagefind-3/, …, which
 * the search page merges into the first (Pagefind's mergeIndex). Record pages fill the bundles in id order.
 *
 * One rule, two callers: the search page (how many bundles to merge) and scripts/build-search.ts (which pages go
 * where); the script checks that the page lists exactly the bundles it wrote.
 */

export const DEFAULT_SEARCH_SHARD_RECORDS = 20_000;
export const SEARCH_SHARD_RECORDS_ENV = 'SEARCH_SHARD_RECORDS';

/** Records per bundle for a build: $SEARCH_SHARD_RECORDS when set to a positive integer, else the default. */
export function searchShardRecords(env: Record<string, string | undefined> = process.env): number {
  const raw = env[SEARCH_SHARD_RECORDS_ENV]?.trim();
  if (!raw) return DEFAULT_SEARCH_SHARD_RECORDS;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${SEARCH_SHARD_RECORDS_ENV} must be a positive integer (records), not ${JSON.stringify(raw)}`);
  return n;
}

/** The folder (relative to the site root, with a trailing slash) of bundle `n`, counting from 1. */
export function searchBundleDir(n: number): string {
  return n === 1 ? 'pagefind/' : `pagefind-${n}/`;
}

/** The bundle folders for `recordCount` record pages: always at least one (an archive without records still has a search page). */
export function searchBundleDirs(recordCount: number, perBundle: number = searchShardRecords()): string[] {
  const count = Math.max(1, Math.ceil(recordCount / perBundle));
  return Array.from({ length: count }, (_, i) => searchBundleDir(i + 1));
}
