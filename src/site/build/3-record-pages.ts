/**
 * The record pages, /records/<id>/, and then the listing pages, /browse/…, rendered on worker threads while Astro
 * builds the rest of the site.
 *
 * Why outside Astro: record and listing pages are all but a few dozen of the site's pages (11,470 of about 11,540 at 9,899
 * records), and Astro renders pages one at a time on one thread, at about 1 ms of its own per page even for a page
 * that is one prepared string, and renders every page on every build. A record page is a pure function of the record
 * and a few relations (src/site/render/record-document.ts), a listing page of its job (src/site/model/listing-jobs.ts,
 * src/site/render/listing-document.ts); both also serve `astro dev`. So the build renders these pages on worker
 * threads from the moment the archive is validated, each linked from the page cache when its input is unchanged, into
 * the site's folder, where a page that is right already is left as it is (src/site/build/5-site-folder.ts).
 *
 * A failure of the pool costs time, never pages: whatever the workers did not write is rendered on the main thread,
 * which also takes its share of the batches once Astro is done with its own pages. Threads: RECORD_PAGE_THREADS,
 * else one per core besides the main thread's, at most 4. Piscina, a well-kept worker-thread pool, runs them.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import Piscina from 'piscina';
import { newestFirstOrder } from '../../core/publish/records.ts';
import { relations, summarizeRecord, type ArchiveEntry, type RecordSummary } from '../model/archive-model.ts';
import { classificationEntry, guardianEntry } from '../../core/publish/archive-views.ts';
import type { PublishRecord } from '../../core/publish/records.ts';
import { archiveViewsOf, type SiteRecord } from './2-read-archive.ts';
import type { ArchiveLogger } from './console-logger.ts';
import renderRecordPages, { searchDocumentLines, type RecordBatchResult, type RecordJob, type RecordPageBatch } from './3-record-pages-worker.ts';
import { addToListing } from '../../core/util/update-in-place.ts';
import type { ListingJob } from '../model/listing-jobs.ts';
import type { FrameSettings } from '../render/page-frame.ts';
import { listingCacheKey, PageCache, type PageCacheListing, type PageCacheSettings } from './cache/page-cache.ts';
import { runInSlices } from '../../core/util/time-slices.ts';
import { RENDERING_BUILD_PAGES } from './large-archive.ts';

/** Pages per task: large enough that messaging is cheap, small enough to spread the work evenly. */
const BATCH = 64;

/**
 * How much of a thread's work is queued at it: a thread gets its batches from the main thread, which hands them out
 * only between steps of its own. With one batch at a time, the page thread of a build of 99,006 records with every
 * page cached (a batch in about 7 ms) waited 9.5 s of its 14.8 s on 2 cores; with 150 ms of batches (16 at most), a
 * third of its time still, a batch of cached pages now taking 3 ms. With 600 ms (64 at most) it waited 1.2 s of 5.2,
 * and builds in turn after an append at 99,060 records took 8.48 → 8.20 s (medians of 6 pairs, each faster). Once
 * the main thread renders too (finish), a short queue at the end leaves it little to wait for: QUEUED_MS_AT_THE_END.
 * At most QUEUED_BATCHES once a batch has been timed (at 64, 200 ms of cached pages: the thread still ran dry while
 * this thread made the public index or collected its garbage), FIRST_BATCHES before: a clean build's batch takes 50
 * times as long, and what is queued at a thread at the start is no longer this thread's to share at the end.
 */
const QUEUED_MS = 600;
const QUEUED_MS_AT_THE_END = 150;
const QUEUED_BATCHES = 256;
const FIRST_BATCHES = 64;

/**
 * The batches to keep queued at each thread, a batch taking `batchMs` there (0: not timed yet): about `queuedMs` of
 * work, at least two (the next batch is there when one ends), at most QUEUED_BATCHES; FIRST_BATCHES before the first.
 */
export function batchesToQueue(batchMs: number, queuedMs: number = QUEUED_MS): number {
  if (!(batchMs > 0)) return FIRST_BATCHES;
  return Math.min(QUEUED_BATCHES, Math.max(2, Math.ceil(queuedMs / batchMs)));
}

/**
 * A batch's time as the queue reckons it: the median of the last five timed (0 before the first), so that one slow
 * batch (the thread's first, a page rendered among cached ones, a collection) does not cut the queue to a tenth, nor
 * hold it there for long.
 */
export function batchTimes(): { add(ms: number): void; readonly ms: number } {
  const last: number[] = [];
  let median = 0;
  return {
    add(ms) {
      last.push(ms);
      if (last.length > 5) last.shift();
      const sorted = [...last].sort((a, b) => a - b);
      median = sorted[Math.floor(sorted.length / 2)]!;
    },
    get ms() {
      return median;
    },
  };
}

/** A worker's young generation (V8 counts three semi-spaces' worth). */
const YOUNG_GENERATION_MB = 96;

/**
 * Worker threads: RECORD_PAGE_THREADS when set (0: render on the main thread), else one per core besides the main
 * thread's (which renders its share too), at least 1, at most 4. On 2 cores one thread beside the main thread built
 * 10,000 records as fast as two (8.2 s clean either way; 2.3–2.5 s against 2.6–2.8 s with nothing changed) with 70–100 MB
 * less at the peak; at 100,000 records the clean build took 66 s against 62 s, and a build with nothing changed 1.56 GB
 * against 1.65 GB at the same 19 s.
 */
export function recordPageThreads(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  const configured = env.RECORD_PAGE_THREADS;
  if (configured !== undefined && configured.trim() !== '') {
    const n = Number(configured);
    if (!Number.isInteger(n) || n < 0 || n > 64) {
      throw new Error(`RECORD_PAGE_THREADS must be a whole number from 0 to 64 (got ${JSON.stringify(configured)})`);
    }
    return n;
  }
  return Math.max(1, Math.min(4, cores - 1));
}

/** The part of a site record a record's page and raw file need (the record itself is read from the file). */
export type RecordSource = ArchiveEntry & Pick<SiteRecord, 'file' | 'identity' | 'log'>;

/**
 * What each record page needs besides its record: the report it links to, the records linking to it, and what it
 * supersedes or is superseded by; and where the record's validated file is, to publish it beside the page. Newest
 * first (the order of the browse pages). Only the few records named in a relation are summarised here.
 */
export function recordJobs(records: readonly RecordSource[]): RecordJob[] {
  const entries = newestFirstOrder(records);
  const rel = relations(entries);
  // The build's one derivation of the guardian registry and classifications (the index and guardian pages read it too).
  const views = archiveViewsOf(records as readonly PublishRecord[]);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const summaries = new Map<string, RecordSummary>();
  const summary = (id: string) => {
    let s = summaries.get(id);
    if (s === undefined) summaries.set(id, (s = summarizeRecord(byId.get(id)!)));
    return s;
  };
  const none: readonly string[] = [];
  return entries.map(({ id, path, archiveDate, sha256, file, identity, log }) => {
    if (id === '.' || id === '..') throw new Error(`record ${path}: "${id}" cannot name a page folder`);
    const linkedReport = rel.linkedReport.get(id);
    const guardianResult = views.registry.results.get(id);
    const guardian = guardianEntry(guardianResult);
    const classification = classificationEntry(views.classifications.get(id));
    const guardianOf = views.registry.guardianOf.get(id);
    const reclassifies = views.reclassifies.get(id);
    return {
      // Not the record: the worker parses it from the file it publishes (src/site/build/3-record-pages-worker.ts).
      page: {
        entry: { id, path, archiveDate, sha256 },
        linkedReport: linkedReport === undefined ? undefined : summary(linkedReport),
        linkedFrom: (rel.linkedFrom.get(id) ?? none).map(summary),
        supersededBy: rel.supersededBy.get(id) ?? none,
        supersedes: rel.supersedes.get(id) ?? none,
        corrects: rel.corrects.get(id),
        correctedBy: rel.correctedBy.get(id) ?? none,
        log,
        // Inputs of the page like the relations above, so in its cache key (page-cache.ts keys the whole job).
        ...(guardian ? { guardian: { ...guardian, errors: [...guardianResult!.errors] } } : {}),
        ...(guardianOf !== undefined ? { guardianOf } : {}),
        ...(classification ? { classification } : {}),
        ...(reclassifies !== undefined ? { reclassifies } : {}),
      },
      raw: { id, path, file, sha256, ...(identity === undefined ? {} : { identity }) },
    };
  });
}

/** What a whole run did: the batches' counts. */
export type RecordPagesTotal = RecordBatchResult;

export interface RecordPagesRun {
  /**
   * Settles once the jobs are made and the threads have their first batches: other work of the main thread waits for
   * it, so that it does not hold the threads up (they get batches from this thread).
   */
  started: Promise<void>;
  /**
   * Renders what is left (the main thread joins in), waits for every page; how many pages and raw files. `cacheListing`:
   * the page cache as the caller listed it during the build (listPageCache), which this thread's pages then use.
   */
  finish(cacheListing?: PageCacheListing): Promise<RecordPagesTotal>;
  /** Stops the workers (a build that ends without finish). */
  stop(): Promise<void>;
  /**
   * The search documents (JSON lines) of these records, made on this thread from their files: what the index's thread
   * asks for when the page cache could not give it one after all (7-search-segments.ts). Once the jobs are made.
   */
  searchDocuments(ids: readonly string[]): string[];
}

export interface RecordPagesOptions {
  frame: FrameSettings;
  /** Where each page goes, as <dir>/<id>/index.html, and each raw file, as <dir>/<id>.json. */
  dir: string;
  logger: ArchiveLogger;
  threads?: number;
  /** The page cache (src/site/build/cache/page-cache.ts); without it every page is rendered. */
  cache?: PageCacheSettings;
  /** When the build started, before validation read any record (RecordPageBatch.validatedAfter). */
  validatedAfter?: bigint;
  /** When the last build that finished in `dir`'s site folder noted its record folders (RecordPageBatch.aloneBefore). */
  aloneBefore?: bigint;
  /**
   * Where each batch writes its records' search documents, as <searchDir>/<first job's place>.jsonl
   * (src/site/build/7-search-index.ts); none are made without it.
   */
  searchDir?: string;
  /** Told the name of each batch's search documents file once the batch is done (each file once), with its records' ids in order. */
  onSearchFile?: (file: string, ids: readonly string[]) => void;
  /** Told, as each batch is done, how many pages (record and listing) have been rendered so far rather than taken from the cache. */
  onRendered?: (rendered: number) => void;
  /**
   * The listing pages to render on the same threads, after the record pages (src/site/model/listing-jobs.ts), once
   * they are known; each written to <dir>/<path>index.html, loading the browse script at `script` (a site path).
   */
  listings?: { dir: string; script: string; jobs: Promise<ListingJob[]> };
  /**
   * Whether the pages are expected from the page cache (the build's code and configuration are the last build's).
   * Then the main thread does not join in rendering at the end (finish) when there are threads, unless they have
   * rendered many pages after all: they link the pages faster than this thread, which would first have to list the
   * cache for its share, and has its own work at the end (at 99,0xx records its share of an append's batches was 0.1 s,
   * and the listing of the cache for it as long again). Batches of 256 pages rather than 64 for such a build measured
   * no faster (builds in turn after an append at 99,0xx records: 6.70 → 6.77 s, 6 pairs).
   */
  pagesFromCache?: boolean;
  /**
   * How much work, in milliseconds, to keep queued at each thread (batchesToQueue) until the main thread renders
   * too, when it is QUEUED_MS_AT_THE_END at most; tests set more.
   */
  queuedMs?: number;
}

/**
 * Starts rendering every record's page into `dir`. The worker threads start at once and load the renderer
 * (`records` may be a promise; the site build's is settled already: the core reads and validates the archive without
 * a break, and starting the threads before it slowed the reading down more than it gained, docs/performance.md step
 * 28); then each takes the next batch of pages as soon as it is free, the record pages first, the listing pages once
 * their jobs are known. When Astro is done, `finish` lets the main thread take batches too.
 */
export function startRecordPages(
  records: readonly RecordSource[] | Promise<readonly RecordSource[]>,
  { frame, dir, logger, threads = recordPageThreads(), cache, validatedAfter, aloneBefore, searchDir, onSearchFile, onRendered, listings, pagesFromCache = false, queuedMs = QUEUED_MS }: RecordPagesOptions,
): RecordPagesRun {
  // The work is one list: the record pages, then the listing pages; a batch is a stretch of it.
  let jobs: RecordJob[] = [];
  let listingJobs: ListingJob[] = [];
  let length = 0;
  const total: RecordPagesTotal = { pages: 0, reused: 0, linked: 0, copied: 0, rawKnown: 0, listings: 0, listingsReused: 0, entries: [], placed: [], recordFolders: 0, entriesHashed: 0, entriesKnown: 0, entriesStored: 0, changed: 0 };
  /** Pages rendered so far rather than taken from the cache. */
  const rendered = () => total.pages - total.reused + total.listings - total.listingsReused;
  const count = (r: RecordBatchResult) => {
    total.pages += r.pages;
    total.reused += r.reused;
    total.linked += r.linked;
    total.copied += r.copied;
    total.rawKnown += r.rawKnown;
    total.listings += r.listings;
    total.listingsReused += r.listingsReused;
    total.changed += r.changed;
    total.recordFolders += r.recordFolders;
    total.entriesHashed += r.entriesHashed;
    total.entriesKnown += r.entriesKnown;
    total.entriesStored += r.entriesStored;
    for (const entry of r.entries) total.entries.push(entry);
    for (const page of r.placed) total.placed.push(page);
    if (r.besidePages) addToListing((total.besidePages ??= { files: [], folders: [] }), r.besidePages);
    onRendered?.(rendered());
  };
  /** The record jobs by id, made when the index's thread first asks for a document (searchDocuments). */
  let jobsById: Map<string, RecordJob> | undefined;
  // Whether the listing pages are known too (or will never be): until then the list may still grow.
  let allKnown = false;
  let next = 0;
  /** The next batch nobody has taken yet, as [start, end) in the whole list (so far). */
  const take = (): [number, number] | undefined => {
    if (next >= length) return undefined;
    const start = next;
    next = Math.min(length, next + BATCH);
    return [start, next];
  };
  // The batches a thread failed to do (a batch ends where the list ended when it was taken: the record pages' last
  // batch may be short, the listing pages coming later): the main thread renders them at the end.
  const undone: [number, number][] = [];
  /** The listing jobs of a batch's stretch of the list. */
  const listingsOf = ([start, end]: [number, number]) => listingJobs.slice(Math.max(0, start - jobs.length), Math.max(0, end - jobs.length));
  // A batch is named by its place, so a batch done again (after a failed thread) replaces its own documents file.
  // With a cache, its listing pages go as keys alone (listingCacheKey): their jobs follow only for the pages the
  // cache cannot give (again, below).
  const listingKeys: string[] = [];
  const listingKey = (i: number) => (listingKeys[i] ??= listingCacheKey(cache!.code, frame, listings!.script, listingJobs[i]!));
  const batchOf = (place: [number, number]): RecordPageBatch => {
    const records = jobs.slice(place[0], place[1]);
    const first = Math.max(0, place[0] - jobs.length);
    const pages = listingsOf(place).map((job, i) => (cache && listings ? { path: job.path, key: listingKey(first + i) } : { path: job.path, job }));
    return {
      frame,
      dir,
      jobs: records,
      cache,
      ...(validatedAfter === undefined ? {} : { validatedAfter }),
      ...(aloneBefore === undefined ? {} : { aloneBefore }),
      ...(searchDir === undefined || records.length === 0 ? {} : { searchFile: join(searchDir, `${String(place[0]).padStart(9, '0')}.jsonl`) }),
      ...(listings === undefined || pages.length === 0 ? {} : { listings: { dir: listings.dir, script: listings.script, pages } }),
    };
  };
  /** The batch of the listing pages a batch left unplaced, each with its job this time; none when it left none. */
  const again = (batch: RecordPageBatch, result: RecordBatchResult, place: [number, number]): RecordPageBatch | undefined => {
    if (!result.unplaced?.length || !batch.listings) return undefined;
    const all = listingsOf(place);
    const pages = result.unplaced.map((i) => ({ ...batch.listings!.pages[i]!, job: all[i]! }));
    return { frame, dir, jobs: [], cache, listings: { ...batch.listings, pages } };
  };
  const finished = (batch: RecordPageBatch, results: readonly RecordBatchResult[]) => {
    for (const result of results) count(result);
    if (batch.searchFile !== undefined) onSearchFile?.(batch.searchFile, batch.jobs.map((job) => job.page.entry.id));
  };
  // This thread's view of the cache, made when it joins in (finish), from the caller's listing of the cache if given.
  let hereCache: PageCache | undefined;
  const renderHere = (place: [number, number]) => {
    const batch = batchOf(place);
    const result = renderRecordPages(batch, hereCache);
    const rest = again(batch, result, place);
    finished(batch, rest ? [result, renderRecordPages(rest, hereCache)] : [result]);
  };

  const pool =
    threads === 0
      ? undefined
      : new Piscina<RecordPageBatch, RecordBatchResult>({
          filename: new URL('./3-record-pages-worker.ts', import.meta.url).href,
          minThreads: threads,
          maxThreads: threads,
          concurrentTasksPerWorker: QUEUED_BATCHES,
          // Rendering makes many short-lived strings: a larger young generation (32 MB semi-spaces, as the
          // validate command uses) spends less time collecting them.
          resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
        });
  let failure: unknown;
  let stopped = false;
  // Batches handed to the pool and not yet done; a batch's time on its thread (batchTimes). Before the first,
  // FIRST_BATCHES: the main thread has long steps of its own then. For a large archive a long queue at the start
  // costs nothing; an archive of fewer than FIRST_BATCHES batches a thread (64 of BATCH pages: about 4,000 records) is
  // queued at the threads whole, and the main thread finds none left to render when it joins in.
  let inFlight = 0;
  const timed = batchTimes();
  let queued = queuedMs;
  const queueLength = () => threads * batchesToQueue(timed.ms, queued);
  const runOnPool = async (p: Piscina<RecordPageBatch, RecordBatchResult>, batch: [number, number]) => {
    const task = batchOf(batch);
    try {
      const result = await p.run(task);
      const rest = again(task, result, batch);
      const restResult = rest && (await p.run(rest));
      // Timed with the pages it sent back to be rendered from their jobs: alone, a batch of listing pages that the
      // cache cannot give takes a few milliseconds, and a queue of 256 of them sent back with their jobs (50 summaries
      // a page) took a build that renders them all from 1.1 to 1.6 GB.
      if (result.ms !== undefined) timed.add(result.ms + (restResult?.ms ?? 0));
      finished(task, restResult ? [result, restResult] : [result]);
    } catch (err) {
      // Left for the main thread, which renders whatever is not done: the whole batch (none of it was counted).
      failure ??= err;
      undone.push(batch);
    }
  };
  /** Hands the pool batches until its queue is full, again as the list grows; settles when the pool has nothing left to do. */
  let more: () => void = () => undefined;
  const feed = (p: Piscina<RecordPageBatch, RecordBatchResult>) =>
    new Promise<void>((resolve) => {
      more = () => {
        for (let batch: [number, number] | undefined; failure === undefined && !stopped && inFlight < queueLength() && (batch = take()) !== undefined; ) {
          inFlight++;
          void runOnPool(p, batch).then(() => {
            inFlight--;
            more();
          });
        }
        if (inFlight === 0 && (allKnown || failure !== undefined || stopped)) resolve();
      };
      more();
    });
  // An empty batch per thread: each loads the renderer now, not when the first pages are due, and lists the page cache
  // while the main thread works out the record pages' jobs (a third of a second at 100,000 records).
  const warm = Promise.all(Array.from({ length: pool ? threads : 0 }, () => pool!.run({ frame, dir, jobs: [], ...(cache ? { cache, listCache: true } : {}) }).catch(() => undefined)));
  // The record pages are handed out as soon as the records are known, before the listing pages' jobs (they wait for
  // the archive's model, about half a second of this thread's time at 100,000 records), which join the list when they come.
  const recordsReady = Promise.resolve(records).then((all) => {
    jobs = recordJobs(all);
    length = jobs.length;
  });
  const ready = Promise.all([recordsReady, listings?.jobs ?? []]).then(([, pages]) => {
    listingJobs = pages;
    length = jobs.length + listingJobs.length;
  });
  // Known, or never to be: either way the pool may settle once it has nothing left to do.
  void ready
    .catch(() => undefined)
    .then(() => {
      allKnown = true;
      more();
    });
  const workers = recordsReady.then(() => (pool && !stopped ? feed(pool) : undefined));
  // A rejected `records` is the caller's to report; here it only means there is nothing to render.
  workers.catch(() => undefined);
  // The listing pages' keys are this thread's work (their jobs are here, and too large to send: ListingTask): made
  // ahead, in slices between its other steps, so that the threads reaching the listings at the end of the list do
  // not wait for this thread to key each batch (1 s of keys at 100,000 records).
  function* keySteps() {
    for (let i = 0; i < listingJobs.length && !stopped; i++) {
      listingKey(i);
      yield;
    }
  }
  if (cache && listings) void ready.then(() => runInSlices(keySteps())).catch(() => undefined);
  return {
    // `workers` was chained on the records first, so by the time this settles the threads have been given their batches.
    started: ready.then(
      () => undefined,
      () => undefined,
    ),
    async finish(cacheListing) {
      await ready;
      if (cache) hereCache = new PageCache(cache, cacheListing);
      // A build whose pages were expected from the cache and are not there after all (another build's pages in a
      // cache two configurations share) renders them: then this thread joins in after all, from as many rendered
      // pages as get such a build its heap limit back (src/site/build/large-archive.ts).
      if (!pagesFromCache || !pool || rendered() >= RENDERING_BUILD_PAGES) {
        queued = Math.min(queued, QUEUED_MS_AT_THE_END);
        // The main thread joins in; between batches, in slices of its time, it lets other work of the build go on: the
        // threads' finished batches, whose places it fills again, and I/O.
        await runInSlices(
          (function* () {
            for (let batch = take(); batch !== undefined; batch = take()) {
              renderHere(batch);
              yield;
            }
          })(),
        );
      }
      await warm;
      await workers;
      await pool?.destroy();
      if (failure !== undefined) {
        const pages = undone.reduce((n, [start, end]) => n + end - start, 0);
        logger.warn(`Rendering record pages on worker threads failed (${failure instanceof Error ? failure.message : String(failure)}); rendering ${pages} on the main thread`);
      }
      for (const batch of undone) renderHere(batch);
      return total;
    },
    async stop() {
      stopped = true;
      more(); // a pool waiting for the listing pages settles now
      await warm;
      await workers.catch(() => undefined);
      await pool?.destroy();
    },
    searchDocuments(ids) {
      const byId = (jobsById ??= new Map(jobs.map((job) => [job.page.entry.id, job])));
      const wanted = ids.map((id) => {
        const job = byId.get(id);
        if (job === undefined) throw new Error(`asked for the search document of ${id}, which has no page`);
        return job;
      });
      return searchDocumentLines(wanted, frame);
    },
  };
}
