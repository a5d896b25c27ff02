/**
 * Which record pages go in which Pagefind search bundle: one rule, two callers, the search page (which bundles to
 * merge: searchBundleDirs, from the record count alone) and scripts/build-search.ts (which pages go where:
 * searchBundlesOf); the script checks that the page lists exactly the bundles it wrote.
 *
 * Why bundles at all: one Pagefind process holds its whole index in memory (about 115 KB per record page: 11.5 GB at
 * 100,000 records), so no bundle holds more than SEARCH_SHARD_RECORDS pages (FULL, default 20,000). The first bundle
 * is /pagefind/ (the search page loads its pagefind.js), the others /pagefind-2/, /pagefind-3/, …, which the search
 * page merges into the first (Pagefind's mergeIndex).
 *
 * The layout, a pure function of the number of pages and FULL (searchBundleSizes), so that a clean build and an
 * incremental one agree: pages in archive order (searchBundleOrder: an appended record goes last) fill
 *   - full bundles of FULL pages, then
 *   - the tail, r = n mod FULL pages, split like a binary counter: chunks of UNIT·2^k pages for the bits of
 *     floor(r / UNIT), largest first, where UNIT = FULL / 16 (1,250 by default: chunks of 10,000, 5,000, 2,500,
 *     1,250), then one partial chunk of r mod UNIT (< UNIT) pages.
 * Why: a bundle whose pages are unchanged comes from the search cache (search-cache.ts), so what an append costs is
 * the pages of the bundles it changes. Appending one record changes exactly one bundle, the last one of the new
 * layout (a test checks this): the partial chunk (< UNIT pages) in UNIT − 1 appends of UNIT; at a carry (the record
 * count reaches a multiple of UNIT) the chunks of the low bits merge into one chunk of UNIT·2^k pages, and once in FULL
 * appends the tail becomes a full bundle (FULL pages, the worst case). Amortised, an append re-indexes about UNIT / 2
 * + 5 pages, at every archive size; with fixed bundles of FULL it re-indexed the whole last bundle (up to FULL).
 * Why a binary counter rather than chunks of UNIT: every bundle costs every reader (the search page merges them all
 * before the first search: ~40 KB more downloaded per bundle, docs/performance.md), and the counter keeps the tail
 * at most 5 bundles (log2(16) + 1) instead of 16. Why 16: measured (docs/performance.md#search-index): FULL / 16
 * keeps an append's search step around a second while the tail adds at most 4 bundles over FULL-sized ones.
 */

import { sequenceOf } from '../archive/paths.ts';
import { compareCodePoints } from '../util/compare.ts';

export const DEFAULT_SEARCH_SHARD_RECORDS = 20_000;
export const SEARCH_SHARD_RECORDS_ENV = 'SEARCH_SHARD_RECORDS';
/** The tail's chunks are FULL / 2^SEARCH_TAIL_LEVELS pages and its doublings (see the module comment). */
export const SEARCH_TAIL_LEVELS = 4;

/** Records per full bundle for a build: $SEARCH_SHARD_RECORDS when set to a positive integer, else the default. */
export function searchShardRecords(env: Record<string, string | undefined> = process.env): number {
  const raw = env[SEARCH_SHARD_RECORDS_ENV]?.trim();
  if (!raw) return DEFAULT_SEARCH_SHARD_RECORDS;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${SEARCH_SHARD_RECORDS_ENV} must be a positive integer (records), not ${JSON.stringify(raw)}`);
  return n;
}

/** The tail's smallest whole chunk for full bundles of `full` pages: full / 16, rounded down, at least 1. */
export function searchTailUnit(full: number): number {
  return Math.max(1, Math.floor(full / 2 ** SEARCH_TAIL_LEVELS));
}

/**
 * The number of pages of each bundle, in order, for `recordCount` pages: full bundles, then the tail's chunks of
 * unit·2^k pages (largest first), then the partial chunk. Always at least one bundle (an archive without records still
 * has a search page): [0] for none.
 */
export function searchBundleSizes(recordCount: number, full: number = searchShardRecords()): number[] {
  if (!Number.isSafeInteger(recordCount) || recordCount < 0) throw new Error(`a record count is a non-negative integer, not ${recordCount}`);
  if (!Number.isSafeInteger(full) || full <= 0) throw new Error(`records per bundle is a positive integer, not ${full}`);
  const sizes: number[] = Array.from({ length: Math.floor(recordCount / full) }, () => full);
  const tail = recordCount % full;
  const unit = searchTailUnit(full);
  const units = Math.floor(tail / unit); // < 2^(SEARCH_TAIL_LEVELS + 1): a few bits
  for (let k = Math.floor(Math.log2(Math.max(1, units))); k >= 0; k--) if (Math.floor(units / 2 ** k) % 2 === 1) sizes.push(unit * 2 ** k);
  if (tail % unit > 0) sizes.push(tail % unit);
  return sizes.length > 0 ? sizes : [0];
}

/** The folder (relative to the site root, with a trailing slash) of bundle `n`, counting from 1. */
export function searchBundleDir(n: number): string {
  return n === 1 ? 'pagefind/' : `pagefind-${n}/`;
}

/** The bundle folders for `recordCount` record pages (searchBundleSizes): always at least one. */
export function searchBundleDirs(recordCount: number, perBundle: number = searchShardRecords()): string[] {
  return searchBundleSizes(recordCount, perBundle).map((_, i) => searchBundleDir(i + 1));
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

/** The record ids of each bundle, with its folder: in searchBundleOrder, cut by searchBundleSizes. */
export function searchBundlesOf(ids: Iterable<string>, perBundle: number = searchShardRecords()): { dir: string; ids: string[] }[] {
  const ordered = searchBundleOrder(ids);
  let start = 0;
  return searchBundleSizes(ordered.length, perBundle).map((size, i) => ({ dir: searchBundleDir(i + 1), ids: ordered.slice(start, (start += size)) }));
}
