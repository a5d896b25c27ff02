/**
 * The search index is split into Pagefind bundles of at most SEARCH_SHARD_RECORDS record pages each, because one
 * Pagefind process holds its whole index in memory (about 115 KB per record page: 11.5 GB at 100,000 records). The
 * first bundle is /pagefind/ (the search page loads its pagefind.js), the others /pagefind-2/, /pagefind-3/, …, which
 * the search page merges into the first (Pagefind's mergeIndex). Record pages fill the bundles in archive order
 * (searchBundleOrder: sequence number first), so that a record appended to the archive lands in the last bundle and
 * leaves every other bundle's pages, and so its cached index (scripts/build-search.ts), as they were.
 *
 * One rule, two callers: the search page (how many bundles to merge) and scripts/build-search.ts (which pages go
 * where); the script checks that the page lists exactly the bundles it wrote.
 */

import { sequenceOf } from '../archive/paths.ts';
import { compareCodePoints } from '../util/compare.ts';

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

/**
 * Record ids in the order bundles fill: conventionally named records (echo-YYYY-MM-DD-NNNNNN) by their sequence
 * number, which the archive hands out as the highest so far + 1 (src/core/archive/paths.ts), then by id; records
 * with another name after them, in code-point order. Id order alone would put a new record archived under an
 * earlier date (a backdated file) in the middle and shift every later bundle; by sequence it goes last.
 */
export function searchBundleOrder(ids: Iterable<string>): string[] {
  const seq = (id: string) => sequenceOf(`${id}.json`) ?? Infinity;
  return [...ids]
    .map((id) => ({ id, seq: seq(id) }))
    .sort((a, b) => (a.seq === b.seq ? compareCodePoints(a.id, b.id) : a.seq < b.seq ? -1 : 1))
    .map((e) => e.id);
}

/** The record ids of each bundle, with its folder: `perBundle` ids at a time, in searchBundleOrder. */
export function searchBundlesOf(ids: Iterable<string>, perBundle: number = searchShardRecords()): { dir: string; ids: string[] }[] {
  const ordered = searchBundleOrder(ids);
  return searchBundleDirs(ordered.length, perBundle).map((dir, i) => ({ dir, ids: ordered.slice(i * perBundle, (i + 1) * perBundle) }));
}
