/**
 * What `npm run build` (scripts/build.ts) does differently for a large archive, LARGE_ARCHIVE files or more, so that
 * its peak memory stays under 1.5 GB at 100,000 records; below that size neither is worth its time.
 *
 * - The heaps grow at most 20 % past what they held after the last full collection (V8's own factor goes up to 4 × on
 *   a machine with much memory). Such a build keeps a few hundred MB live but makes far more short-lived garbage: at
 *   100,000 records the main thread's heap grew to 850 MB over 260 MB live. At 20 % the peak of a build of 99,006
 *   records fell from 1.71 to 1.29 GB without Astro for 2 % more time. Not a cap: a heap still grows as far as its
 *   live data needs. At 9,899 records (a peak of about 450 MB) the extra collections cost a build with nothing
 *   changed 0.3 s of its 2.4 s.
 * - Except in a build whose records come from a warm cache (freerHeapGrowthForCachedRecords): then what grows is the
 *   records the build keeps, and little else, and a 20 % limit has V8 mark them all again each time they grow by a
 *   fifth (24 full collections while 99,006 records were read, 1.5 s of pauses in an append's 12 s), and collect
 *   the young generation's survivors (the model, the archive's pages) more often than they are worth after that.
 *   To the build's end only when its pages are expected from the cache too; a build that renders them all again
 *   makes a clean build's garbage, and with the freer heap peaked above 1.5 GB (limitHeapGrowthWhenRendering).
 * - An `astro build` of Astro's own pages runs before the site build, not beside it (src/site/build/outside-astro.ts):
 *   Astro's process holds about 490 MB, which beside the site build's end took a clean build of 99,006 records to
 *   1.54 GB. In turn, a clean build takes Astro's few seconds longer; at 10,000 records that would be a fifth of it.
 */
import { setFlagsFromString } from 'node:v8';

export const LARGE_ARCHIVE = 30_000;

export const HEAP_GROWING_FLAG = '--heap-growing-percent=20';

/**
 * Limits the growth of every heap of this process (every thread's: V8 reads the flag at each full collection) when
 * the archive has LARGE_ARCHIVE files or more; whether it did.
 */
export function limitHeapGrowthFor(files: number): boolean {
  if (files < LARGE_ARCHIVE) return false;
  setHeapGrowing(HEAP_GROWING_FLAG);
  return true;
}

/** The heap-growth flag this module set last: none until limitHeapGrowthFor applied the limit. */
let flagSet: string | undefined;

/** The heap-growth flag this module set last in this process, if any (V8 does not say what its flags are). */
export function heapGrowingFlagSet(): string | undefined {
  return flagSet;
}

function setHeapGrowing(flag: string): void {
  setFlagsFromString(flag);
  flagSet = flag;
}

/** How far past its live data a heap may grow in a large archive's build from a warm cache: 2 ×, not 1.2 ×. */
export const CACHED_HEAP_GROWING_FLAG = '--heap-growing-percent=100';

/** What a build whose records come from the cache tells the heap limit it lifted (freerHeapGrowthForCachedRecords). */
export interface LiftedHeapLimit {
  /** The records are read, and valid: the limit comes back now, unless the build's pages are expected from the cache too. */
  recordsRead(): void;
  /** The archive was refused: the limit comes back. */
  refused(): void;
}

/**
 * Lifts the limit, if limitHeapGrowthFor applied it, from the moment a build's records start coming from the build's
 * caches (src/site/build/2-read-archive.ts): to the build's end when its pages are expected from the cache too
 * (`pagesExpected`: its code and configuration are an earlier build's, ReadSiteArchiveOptions.pagesFromCache), else
 * while the records are read. Only then: a build that parses every record (a clean build, one with an empty or
 * outdated cache) makes far more garbage while reading, and its peak rose from 1.14 to 1.30 GB without the limit. At
 * 99,043 records, with the limit lifted to the end of the build rather than only while reading, builds in turn after
 * an append took 10.69 → 9.59 s, the peak of the build's process 0.91–0.98 → 1.08–1.22 GB. A build that renders every
 * page again from cached records (another site URL) peaked at 1.36–1.62 GB in 8 builds with the limit lifted to its
 * end, against 1.06–1.19 GB in 8 with the limit back once the records were read.
 */
export function freerHeapGrowthForCachedRecords(pagesExpected: boolean): LiftedHeapLimit {
  if (flagSet === undefined) return { recordsRead: () => undefined, refused: () => undefined }; // no limit to lift
  setHeapGrowing(CACHED_HEAP_GROWING_FLAG);
  const restore = () => setHeapGrowing(HEAP_GROWING_FLAG);
  return { recordsRead: () => (pagesExpected ? undefined : restore()), refused: restore };
}

/** Pages rendered rather than taken from the page cache from which a build is limited again (limitHeapGrowthWhenRendering). */
export const RENDERING_BUILD_PAGES = 1_000;

/**
 * Puts the limit back in a build whose records come from the cache but whose pages do not (another site URL, a changed
 * renderer: every page rendered again), once it has rendered RENDERING_BUILD_PAGES pages (`rendered`, so far), if
 * freerHeapGrowthForCachedRecords lifted it and it is still lifted: a build whose pages were expected from the cache
 * (its code and configuration are an earlier build's) and are not there after all, as when two configurations share
 * one cache. Such a build makes a clean build's garbage on top of the records it keeps. A backstop only: lifted until
 * the first thousand pages, four builds that rendered 99,000 pages again still peaked at 1.17–1.56 GB. An append
 * renders a few pages and keeps the freer heap.
 */
export function limitHeapGrowthWhenRendering(rendered: number): void {
  if (flagSet === CACHED_HEAP_GROWING_FLAG && rendered >= RENDERING_BUILD_PAGES) setHeapGrowing(HEAP_GROWING_FLAG);
}

/** Whether the `astro build` of Astro's own pages runs before the site build rather than beside it. */
export function astroBeforeSiteBuild(files: number): boolean {
  return files >= LARGE_ARCHIVE;
}
