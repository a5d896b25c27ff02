/**
 * Worker of the record-page pool (src/site/build/3-record-pages.ts): for each record of a batch, places its raw file at
 * <dir>/<id>.json (src/site/build/4-raw-records.ts) and renders its page, from those very bytes parsed, to
 * <dir>/<id>/index.html. The job carries no parsed record: the main thread does not keep every record's echo text
 * (src/site/build/2-read-archive.ts), and the raw-record step reads the file anyway. With the page cache
 * (src/site/build/cache/page-cache.ts), a page whose inputs are unchanged is linked from the cache instead of rendered.
 * The folder may hold the previous build's pages (scripts/build.ts updates the site in place): a page or file that
 * is right already is left as it is (src/core/util/update-in-place.ts), and whatever else a record's folder holds is
 * noted for the build's prune (besidePages).
 * Each record's search document (src/site/render/record-page/search-document.ts), or a reference to it in the cache
 * beside its page when the page came from there, goes into the batch's own file of search documents (src/site/build/7-search-index.ts),
 * not back to the main thread: a hundred thousand records' text crossing into Astro's thread while it renders made the
 * build's peak memory double.
 * Synchronous file calls: this thread has nothing else to do. Paths are joined as strings, not with path.join: the
 * folders are normalised absolute paths and the names our own, and join's normalising was 0.4 s of a page thread's
 * time at 100,000 records (five paths a record).
 */
import { lstatSync, readdirSync } from 'node:fs';
import { changedBefore } from '../../core/util/change-time.ts';
import { parsedRecord, publishRawRecord, readRawRecord, type RawRecordFile } from './4-raw-records.ts';
import { PageCache, pageCacheKey, type PageCacheSettings } from './cache/page-cache.ts';
import { addToListing, linkIfChanged, listTree, writeIfChanged, type KnownSource, type TreeListing } from '../../core/util/update-in-place.ts';
import { echoHtml } from '../render/echo-html.ts';
import { frameOf, type FrameSettings, type SiteFrame } from '../render/page-frame.ts';
import { recordDocument } from '../render/record-document.ts';
import type { RecordPageContext, RecordPageInput } from '../render/record-page.ts';
import { recordSearchDocument } from '../render/record-page/search-document.ts';
import { indexedDocument } from '../../core/search/build-index.ts';
import { searchDocumentReference, writeSearchDocuments } from './7-search-index.ts';
import type { ListingJob } from '../model/listing-jobs.ts';
import { listingDocument } from '../render/listing-document.ts';

/** A page's file in its own folder; a record page's from the folder of record pages (the site's records/). */
const PAGE_FILE = 'index.html';
export const recordPageName = (id: string): string => `${id}/${PAGE_FILE}`;

/** A listing page's file, from the site's folder (a listing job's path is a folder's, ending in "/"). */
export const listingPageName = (path: string): string => `${path}${PAGE_FILE}`;

/** A record page's input without the record itself, which is read from the record's file. */
export type RecordPageJob = Omit<RecordPageInput, 'entry'> & { entry: Omit<RecordPageInput['entry'], 'record'> };

/** One record's page and raw file: what the page is made from besides the record, and where the validated file is. */
export interface RecordJob {
  page: RecordPageJob;
  raw: RawRecordFile;
}

/** The page's whole input: the job's, with the record parsed from the validated file's bytes. */
export function recordPageInput(page: RecordPageJob, bytes: Buffer): RecordPageInput {
  return { ...page, entry: { ...page.entry, record: parsedRecord(bytes) } };
}

/** A job's page input with its record read from the file, checked against the validated hash (astro dev, tests). */
export function readRecordPage({ page, raw }: RecordJob): RecordPageInput {
  return recordPageInput(page, readRawRecord(raw));
}

export interface RecordPageBatch {
  frame: FrameSettings;
  dir: string;
  jobs: readonly RecordJob[];
  /** The page cache, unless the build runs without it. */
  cache?: PageCacheSettings;
  /** Where this batch's search documents go (one file, replaced whole); none made without it. */
  searchFile?: string;
  /**
   * When the build started, before validation read any record, as the output's file system stamps files: a published
   * record file that is the file validation read and has not changed since is not read and hashed again (publishRawRecord).
   */
  validatedAfter?: bigint;
  /** Listing pages to render (src/site/model/listing-jobs.ts), each to <dir>/<path>index.html, loading `script`. */
  listings?: ListingBatch;
  /** Lists the whole page cache first (PageCache.listEvery): a batch sent before the pages are known. */
  listCache?: boolean;
  /**
   * The moment before which a record folder that has not changed holds its page alone (cache/record-folders-stamp.ts):
   * such a folder is not read for what it holds besides (listBesidePage).
   */
  aloneBefore?: bigint;
}

export interface ListingBatch {
  dir: string;
  script: string;
  pages: readonly ListingTask[];
}

/**
 * One listing page: its path, its cache key (listingCacheKey, from the main thread) and its job. With a cache the
 * job is left out at first: a page the cache cannot give is then named in the batch's `unplaced`, and the main thread
 * sends it again with its job (src/site/build/3-record-pages.ts). A job carries 50 record summaries, and sending every
 * job of 100,000 records took 3.3 s of the main thread though nearly every page came from the cache.
 */
export interface ListingTask {
  path: string;
  key?: string;
  job?: ListingJob;
}

export interface RecordBatchResult {
  pages: number;
  /** Of `pages`, how many were taken from the page cache. */
  reused: number;
  linked: number;
  copied: number;
  /** Of the raw records, how many were known to hold the validated bytes without being read again (publishRawRecord). */
  rawKnown: number;
  /** Listing pages, and how many of them came from the page cache. */
  listings: number;
  listingsReused: number;
  /** The cache entries this batch used or stored (names relative to the cache folder). */
  entries: string[];
  /**
   * Each page this batch placed from the cache or stored there and its entry, one after the other: for the note of the
   * site folder's pages (cache/placed-pages.ts). A record page by its path from the folder of record pages, a listing
   * page by its path from the site's root with a "/" before it.
   */
  placed: string[];
  /** Of the entries looked at, how many were read and hashed, and how many known unchanged by their ctime (page-cache.ts). */
  entriesHashed: number;
  entriesKnown: number;
  /** Of the entries this batch used or stored, how many it stored (the cache's prune is due after many: page-cache.ts). */
  entriesStored: number;
  /** Files (pages and raw records) written or linked anew: the others held the right bytes already. */
  changed: number;
  /** The listing pages given without their job that the cache could not give (their places in `listings.pages`). */
  unplaced?: number[];
  /**
   * What the records' folders held besides their pages, just before each page was placed (paths from the folder of
   * record pages; folders deepest first): for the build's prune, whose walk of the site passes over the records'
   * folders (src/site/build/site-build.ts). None when they held nothing else.
   */
  besidePages?: TreeListing;
  /**
   * Of the records' folders, how many were there (as folders) before the batch placed their pages: when the records'
   * folder had not changed since the last build finished in it, all of them and only them were that build's records
   * (src/site/build/site-build.ts).
   */
  recordFolders: number;
  /** How long the batch took, in milliseconds (the pool keeps about so much work queued at each thread). */
  ms?: number;
}

/**
 * Notes in `result.besidePages` what the record folder `folder` (`id` from the folder of record pages) holds besides
 * its page: this thread is placing the page there anyway, and 100,000 such folders took the main thread's walk of
 * the site a second or more to read. A folder not there yet, or a file where it belongs, holds nothing to note (the
 * page's placing makes the folder; a file in the way is in the main thread's walk); nor does a folder that holds the
 * page alone, or a folder in its place (placing the page removes it whole), which is read once, by name only. A folder
 * unchanged since `aloneBefore` (RecordPageBatch) holds its page alone and is not read: one status call, not five.
 */
function listBesidePage(folder: string, id: string, result: RecordBatchResult, aloneBefore: bigint | undefined): void {
  if (aloneBefore !== undefined) {
    // A folder (not a link to one) that has had nothing added, removed or renamed since the last build finished in it.
    const status = lstatSync(folder, { bigint: true, throwIfNoEntry: false });
    if (status?.isDirectory() && changedBefore(status, aloneBefore)) {
      result.recordFolders++;
      return;
    }
  }
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    throw err;
  }
  result.recordFolders++;
  if (names.every((name) => name === PAGE_FILE)) return;
  const inside = listTree(folder);
  addToListing((result.besidePages ??= { files: [], folders: [] }), { files: inside.files.filter((file) => file !== PAGE_FILE), folders: inside.folders }, `${id}/`);
}

/** A worker thread's view of the cache, for the build that is running (a thread may serve several builds in tests). */
let threadCache: PageCache | undefined;
function cacheFor(settings: PageCacheSettings | undefined): PageCache | undefined {
  if (settings === undefined) return undefined;
  if (threadCache?.settings.build !== settings.build) threadCache = new PageCache(settings);
  return threadCache;
}

/**
 * Renders a batch (the handler of the page threads). `here`: the main thread's view of the cache for this build, which
 * it makes itself from its own listing of the cache (src/site/build/3-record-pages.ts); a worker thread keeps its own.
 */
export default function renderRecordPages(batch: RecordPageBatch, here?: PageCache): RecordBatchResult {
  const { frame, dir, jobs, cache: settings, searchFile, validatedAfter, listings, listCache, aloneBefore } = batch;
  const started = performance.now();
  const siteFrame = frameOf(frame);
  const cache = here ?? cacheFor(settings);
  if (listCache) cache?.listEvery();
  const result: RecordBatchResult = { pages: 0, reused: 0, linked: 0, copied: 0, rawKnown: 0, listings: 0, listingsReused: 0, entries: [], placed: [], recordFolders: 0, entriesHashed: 0, entriesKnown: 0, entriesStored: 0, changed: 0 };
  const checksBefore = cache && { ...cache.checks };
  if (listings) renderListingPages(listings, siteFrame, cache, result);
  // Each record's search document as one line: its JSON, or a reference to the cache's entry, which is that line
  // already (the index's thread reads it only if it has to make the record's segment: 7-search-segments.ts).
  const search: string[] = [];
  // The page and the search document both need the echo's HTML: rendered once (the Markdown is most of a page's cost).
  let last: { echo: string; html: string } | undefined;
  const echoOnce = (echo: string) => (last?.echo === echo ? last.html : (last = { echo, html: echoHtml(echo) }).html);
  const ctx = { paths: siteFrame.paths, site: siteFrame.site, echoHtml: echoOnce };
  for (const { page, raw } of jobs) {
    // Always published and checked: the raw file is the record's bytes, which the page's key names by their hash. Its
    // bytes are read only if they were not known already and checked, or when the page or search document needs them.
    const published = publishRawRecord(raw, dir, validatedAfter);
    result[published.how]++;
    if (published.changed) result.changed++;
    if (published.bytes === undefined) result.rawKnown++;
    let bytes = published.bytes;
    const recordBytes = () => (bytes ??= readRawRecord(raw));
    const file = `${dir}/${recordPageName(page.entry.id)}`;
    listBesidePage(`${dir}/${page.entry.id}`, page.entry.id, result, aloneBefore);
    result.pages++;
    const key = cache ? pageCacheKey(cache.settings.code, frame, page) : undefined;
    if (cache && key) {
      const name = recordPageName(page.entry.id);
      const placed = fromCache(cache, name, key, file);
      if (placed) {
        if (placed.changed) result.changed++;
        result.reused++;
        result.entries.push(placed.entry);
        result.placed.push(name, placed.entry);
        if (searchFile === undefined) continue;
        // Named, not looked at: the index's thread reads and checks it only if it makes the record's segment, and
        // asks for the document if it cannot (searchDocumentLines).
        const searchEntry = cache.named(key, 'json');
        if (searchEntry !== undefined) {
          search.push(searchDocumentReference(searchEntry));
          result.entries.push(searchEntry);
        } else search.push(storeSearchDocument(cache, key, searchDocumentLine(recordPageInput(page, recordBytes()), ctx), result));
        continue;
      }
    }
    const input = recordPageInput(page, recordBytes());
    const html = recordDocument(input, siteFrame, echoOnce);
    if (writeIfChanged(file, html)) result.changed++;
    const stored = cache && key ? cache.store(key, file, html) : undefined;
    if (stored !== undefined) {
      result.entries.push(stored);
      result.placed.push(recordPageName(page.entry.id), stored);
    }
    if (searchFile === undefined) continue;
    const doc = searchDocumentLine(input, ctx);
    search.push(cache && key ? storeSearchDocument(cache, key, doc, result) : doc);
  }
  if (searchFile !== undefined) writeSearchDocuments(searchFile, search);
  if (cache && checksBefore) {
    result.entriesHashed = cache.checks.hashed - checksBefore.hashed;
    result.entriesKnown = cache.checks.known - checksBefore.known;
    result.entriesStored = cache.checks.stored - checksBefore.stored;
  }
  result.ms = performance.now() - started;
  return result;
}

/**
 * The listing pages of a batch: each linked from the cache under its key when the cache has it, else rendered from
 * its job and stored; a page without its job that the cache cannot give is noted in `result.unplaced`.
 */
function renderListingPages({ dir, script, pages }: ListingBatch, siteFrame: SiteFrame, cache: PageCache | undefined, result: RecordBatchResult): void {
  for (const [place, { path, key, job }] of pages.entries()) {
    const file = `${dir}/${listingPageName(path)}`;
    const name = `/${listingPageName(path)}`; // from the site's root: apart from the record pages' names
    if (cache && key) {
      const placed = fromCache(cache, name, key, file);
      if (placed) {
        if (placed.changed) result.changed++;
        result.listings++;
        result.listingsReused++;
        result.entries.push(placed.entry);
        result.placed.push(name, placed.entry);
        continue;
      }
    }
    if (job === undefined) {
      (result.unplaced ??= []).push(place);
      continue;
    }
    result.listings++;
    const html = listingDocument(job, siteFrame, script);
    if (writeIfChanged(file, html)) result.changed++;
    const stored = cache && key ? cache.store(key, file, html) : undefined;
    if (stored !== undefined) {
      result.entries.push(stored);
      result.placed.push(name, stored);
    }
  }
}

/** A record's search document as a line of a batch's documents file (its JSON). */
function searchDocumentLine(input: RecordPageInput, ctx: RecordPageContext): string {
  return JSON.stringify(indexedDocument(recordSearchDocument(input, ctx)));
}

/**
 * The search documents of these records' jobs, made on the calling thread from their files (read and checked against
 * the validated hash): for the index's thread, when a document the page cache was to give cannot be read or has
 * changed (src/site/build/7-search-segments.ts).
 */
export function searchDocumentLines(jobs: readonly RecordJob[], frame: FrameSettings): string[] {
  const siteFrame = frameOf(frame);
  const ctx = { paths: siteFrame.paths, site: siteFrame.site, echoHtml };
  return jobs.map((job) => searchDocumentLine(readRecordPage(job), ctx));
}

/** Stores a record's search document (its JSON line) beside its page in the cache; the line. */
function storeSearchDocument(cache: PageCache, key: string, line: string, result: RecordBatchResult): string {
  const stored = cache.storeBytes(key, line, 'json');
  if (stored !== undefined) result.entries.push(stored);
  return line;
}

/**
 * The page at `file` (`name` in the note of the folder's pages) from the cache's entry for `key`: as the last build in
 * this folder left it (placedUnchanged: the page's status alone), else the entry located and linked in if need be. Its
 * entry, and whether the page changed; undefined when the cache cannot give it.
 */
function fromCache(cache: PageCache, name: string, key: string, file: string): { entry: string; changed: boolean } | undefined {
  const kept = cache.placedUnchanged(name, key, file);
  if (kept !== undefined) return { entry: kept, changed: false };
  const hit = cache.locate(key);
  const placed = hit && placeCached(`${cache.settings.dir}/${hit.name}`, file, hit);
  return hit && placed ? { entry: hit.name, changed: placed === 'changed' } : undefined;
}

/**
 * Links a verified entry at the page's place (left as it is when it is that entry already, or a page of its own that
 * holds the entry's bytes: linkIfChanged with the entry's hash); false if the entry vanished in between (another build
 * pruned it) or no longer holds the bytes checked. `known`: the entry's hash, and its bytes, when they were read to
 * check it, or its identity, when it was known unchanged by its change time.
 */
function placeCached(entry: string, file: string, known: KnownSource): 'changed' | 'kept' | false {
  try {
    return linkIfChanged(entry, file, known).changed ? 'changed' : 'kept';
  } catch {
    return false;
  }
}
