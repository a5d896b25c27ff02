/**
 * The pages of a record listing (all records, or those with one facet value), cut so that appending a record changes
 * a constant number of them, however large the archive (issue 27).
 *
 * The listing is taken in order of arrival, oldest first (src/core/search/archive-order.ts: an appended record is
 * always the newest), and cut into chunks of `pageSize` from the oldest: chunk k holds records (k−1)·P … k·P−1, so a
 * full chunk never changes again. Full chunks live at numbered addresses (/browse/<k>/), 1 the oldest. The listing's
 * own address (the front page) holds the newest records: the last full chunk and the unfinished one after it, P to
 * 2P−1 records (all of them when there are fewer than P). The last full chunk has no numbered page of its own while it
 * is on the front page: every record is on exactly one page, and the front page never shows fewer than P records
 * (the unfinished chunk alone could be a single record). When the unfinished chunk fills, the chunk before it gets
 * its numbered page, and that page keeps its records from then on.
 *
 * Every page shows its records newest first. Its navigation names the front page, the numbered pages within two of
 * it and page 1; only the pages next to the newest end name a number that depends on the listing's length.
 * What this does not hold still: a record that leaves a facet value's listing or joins one in the middle (a
 * correction supersedes an older record, whose status changes) moves every record after it in that listing, so
 * the listing's pages from there on change. That is an edit of an older record, not an append.
 * Pure: the Astro routes (src/pages/browse/) give it their records, the tests any list.
 */

/** Where a page lives: the listing's own address ('front'), or its number (1 holds the oldest records). */
export type PagePlace = 'front' | number;

export interface ListingNavigation {
  /** The page of the next newer records (towards the front page), if any. */
  newer: PagePlace | null;
  /** The page of the next older records (towards page 1), if any. */
  older: PagePlace | null;
  /** The pages linked by place, newest first, this one included; 'gap' where pages are left out between two. */
  shown: (PagePlace | 'gap')[];
}

export interface ListingPage<T> {
  at: PagePlace;
  /** This page's records, newest first. */
  items: T[];
  /** Where its oldest and newest record stand in the listing's order of arrival, counted from 1 (0, 0 when empty). */
  from: number;
  to: number;
  navigation: ListingNavigation;
}

/** Numbered pages shown on either side of the current one. */
const NEIGHBOURS = 2;

/**
 * The places a page's navigation links, newest first: the front page, the numbered pages within NEIGHBOURS of this
 * one (of the front page: the newest numbered ones), and page 1, with 'gap' for every run of pages left out.
 */
function shownPlaces(at: PagePlace, newestNumbered: number): (PagePlace | 'gap')[] {
  // The front page stands where page newestNumbered + 1 would.
  const centre = at === 'front' ? newestNumbered + 1 : at;
  const numbers: number[] = [];
  for (let n = Math.min(newestNumbered, centre + NEIGHBOURS); n >= Math.max(1, centre - NEIGHBOURS); n--) numbers.push(n);
  if (numbers.at(-1) !== 1) numbers.push(1);
  const shown: (PagePlace | 'gap')[] = ['front'];
  let previous = newestNumbered + 1;
  for (const n of numbers) {
    if (previous - n > 1) shown.push('gap');
    shown.push(n);
    previous = n;
  }
  return shown;
}

/**
 * The pages of a listing, given its records oldest first: the front page first, then the numbered pages from the
 * newest (highest number) down to 1.
 */
export function listingPages<T>(oldestFirst: readonly T[], pageSize: number): ListingPage<T>[] {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError(`a page holds at least one record (page size ${pageSize})`);
  const total = oldestFirst.length;
  const fullChunks = Math.floor(total / pageSize);
  // Every full chunk but the last has its numbered page; the last is on the front page.
  const newestNumbered = Math.max(0, fullChunks - 1);
  const page = (at: PagePlace, start: number, end: number): ListingPage<T> => ({
    at,
    items: oldestFirst.slice(start, end).reverse(),
    from: end > start ? start + 1 : 0,
    to: end > start ? end : 0,
    navigation: {
      newer: at === 'front' ? null : at === newestNumbered ? 'front' : at + 1,
      older: at === 'front' ? (newestNumbered >= 1 ? newestNumbered : null) : at > 1 ? at - 1 : null,
      shown: newestNumbered === 0 ? [] : shownPlaces(at, newestNumbered),
    },
  });
  const pages = [page('front', newestNumbered * pageSize, total)];
  for (let k = newestNumbered; k >= 1; k--) pages.push(page(k, (k - 1) * pageSize, k * pageSize));
  return pages;
}

/** Records per listing page: 50, or BROWSE_PAGE_SIZE when set (tests use a small one to see pages turn over). */
export const DEFAULT_BROWSE_PAGE_SIZE = 50;
export const BROWSE_PAGE_SIZE_ENV = 'BROWSE_PAGE_SIZE';

export function browsePageSize(env: Record<string, string | undefined> = process.env): number {
  const raw = env[BROWSE_PAGE_SIZE_ENV]?.trim();
  if (!raw) return DEFAULT_BROWSE_PAGE_SIZE;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1 || n > 10_000) throw new Error(`${BROWSE_PAGE_SIZE_ENV} must be a whole number from 1 to 10000, not ${JSON.stringify(raw)}`);
  return n;
}
