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
 * incremental one agree and the search page needs only the record count: pages in archive order (searchBundleOrder:
 * an appended record goes last) fill
 *   - full bundles of FULL pages, then
 *   - the tail, split like a binary counter into chunks of UNIT·2^k pages, largest first, where UNIT = FULL / 32
 *     (625 by default: chunks of 10,000, 5,000, 2,500, 1,250, 625), then
 *   - the last bundle, which holds the newest pages: between UNIT and 2·UNIT − 1 of them (an archive of fewer than
 *     2·UNIT records is one bundle).
 * Why: a bundle whose pages are unchanged comes from the search cache (search-cache.ts), so an append costs the pages
 * of the bundles it changes. With fixed bundles of FULL, that was the whole last bundle (up to FULL pages: every page
 * of a 10,000-record archive). Here an append changes the last bundle only (UNIT to 2·UNIT − 1 pages), except once in
 * UNIT appends, a carry, when the last bundle hands UNIT pages to the chunks: then the chunks of the low bits merge
 * into one (or, once in FULL appends, into a full bundle) and that chunk changes too. Amortised, an append re-indexes
 * about 1.5·UNIT + 6 pages at every archive size; the worst case is one full bundle and UNIT pages.
 * Why a binary counter, not chunks of UNIT: every bundle costs every reader (the search page merges them all before
 * the first search: about 40 KB more to download per bundle, docs/performance.md), and the counter keeps the tail to
 * at most 6 bundles. Why the last bundle keeps at least UNIT pages: Pagefind ranks each bundle with its own statistics
 * (BM25's IDF grows with the bundle's page count), so the records of a bundle of a few pages, the newest ones, would
 * rank below every match in a large bundle, even for their own heading (measured: docs/performance.md). Why UNIT =
 * FULL / 32: measured there too (an append's search step of about 3 s at 10,000 records, with at most 11 bundles to
 * merge at 100,000).
 */

import { sequenceOf } from '../archive/paths.ts';
import { compareCodePoints } from '../util/compare.ts';

export const DEFAULT_SEARCH_SHARD_RECORDS = 20_000;
export const SEARCH_SHARD_RECORDS_ENV = 'SEARCH_SHARD_RECORDS';
/** The tail's unit is FULL / 2^SEARCH_TAIL_LEVELS pages (see the module comment). */
const SEARCH_TAIL_LEVELS = 5;

/**
 * Pagefind's ranking options for the search page, given to the first bundle and to every merged one (the search page
 * writes them in data-ranking; src/site/client/search.ts and scripts/lib/search-queries.ts read them there).
 * Pagefind ranks each bundle with its own statistics, and a bundle without any word that starts with a query's last
 * term falls back to the longest indexed word that the term starts with ("Echo 5422" then matches record 542's "542"
 * there); with bundles of unequal size that near-match could outrank the exact match in another bundle. A term
 * similarity of 5 (Pagefind's default: 1) weighs the word's length difference enough that an exact word wins
 * (docs/performance.md: record-first queries).
 */
export const SEARCH_RANKING: Readonly<Record<string, number>> = Object.freeze({ termSimilarity: 5 });

/** Records per full bundle for a build: $SEARCH_SHARD_RECORDS when set to a positive integer, else the default. */
export function searchShardRecords(env: Record<string, string | undefined> = process.env): number {
  const raw = env[SEARCH_SHARD_RECORDS_ENV]?.trim();
  if (!raw) return DEFAULT_SEARCH_SHARD_RECORDS;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${SEARCH_SHARD_RECORDS_ENV} must be a positive integer (records), not ${JSON.stringify(raw)}`);
  return n;
}

/** The tail's unit for full bundles of `full` pages: full / 2^SEARCH_TAIL_LEVELS, rounded down, at least 1. */
export function searchTailUnit(full: number): number {
  return Math.max(1, Math.floor(full / 2 ** SEARCH_TAIL_LEVELS));
}

/**
 * The number of pages of each bundle, in order, for `recordCount` pages (see the module comment): full bundles, the
 * tail's chunks of unit·2^k pages (largest first), and the last bundle of unit to 2·unit − 1 pages. Fewer than
 * 2·unit pages are one bundle. Always at least one bundle (an archive without records still has a search page): [0].
 */
export function searchBundleSizes(recordCount: number, full: number = searchShardRecords()): number[] {
  if (!Number.isSafeInteger(recordCount) || recordCount < 0) throw new Error(`a record count is a non-negative integer, not ${recordCount}`);
  if (!Number.isSafeInteger(full) || full <= 0) throw new Error(`records per bundle is a positive integer, not ${full}`);
  const unit = searchTailUnit(full);
  if (recordCount < 2 * unit) return [recordCount];
  // Full bundles once the pages after them still fill the last bundle's minimum (unit pages).
  const fulls = Math.floor((recordCount - unit) / full);
  const tail = recordCount - fulls * full; // unit ≤ tail < full + unit
  const last = unit + ((tail - unit) % unit);
  const units = (tail - last) / unit; // chunks' pages < full: a few bits
  const sizes: number[] = Array.from({ length: fulls }, () => full);
  for (let k = Math.floor(Math.log2(Math.max(1, units))); k >= 0; k--) if (Math.floor(units / 2 ** k) % 2 === 1) sizes.push(unit * 2 ** k);
  sizes.push(last);
  return sizes;
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
