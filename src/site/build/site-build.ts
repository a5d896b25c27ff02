/**
 * One site build, whoever runs it: Astro's integration (src/site/build/integration.ts), with Astro building its own
 * pages in the same process (a bare `astro build`), or src/site/build/outside-astro.ts (`npm run build`), with Astro's
 * files from its recorded output (src/site/build/cache/astro-output.ts) or from an `astro build` of its own pages
 * beside it. Framework-free: it imports nothing from Astro.
 *
 * startSiteBuild reads and validates the archive (an invalid archive stops it, with the command line's own report) and
 * starts the record and listing pages on worker threads (3-record-pages.ts) and the search index on its own thread
 * (7-search-index.ts). finish writes the pages made from the whole archive (3-archive-pages.ts), waits for the threads,
 * writes the browse script, the log and the index, puts Astro's files in (waiting for them only then), and removes
 * whatever the build did not place (5-site-folder.ts). Every file is written only when its bytes change
 * (src/core/util/update-in-place.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { buildCacheRoot, noCacheFromEnv } from '../../core/publish/build-cache.ts';
import { fileSystemNow, fileSystemNowAfter } from '../../core/util/change-time.ts';
import { addToListing, listTreeInSlices, setAsideKept, writeIfChanged, type PassOver } from '../../core/util/update-in-place.ts';
import { runInSlices } from '../../core/util/time-slices.ts';
import { sitePaths } from '../model/paths.ts';
import { listingJobs } from '../model/listing-jobs.ts';
import { browsePageSize } from '../model/listing-pages.ts';
import { archiveModelInSlices } from '../model/site-model.ts';
import { isDeployBuild, siteConfig } from '../../core/config.ts';
import type { FrameSettings, LocalBuild } from '../render/page-frame.ts';
import { bundleBrowseScript } from './1-browse-script.ts';
import { readStylesheetHref } from './1-stylesheet.ts';
import { readSiteArchive, siteLogOf, type SiteRecord } from './2-read-archive.ts';
import type { ArchiveLogger } from './console-logger.ts';
import { writeArchivePages } from './3-archive-pages.ts';
import { startRecordPages } from './3-record-pages.ts';
import { listingPageName, recordPageName } from './3-record-pages-worker.ts';
import { rawRecordIdOf } from './4-raw-records.ts';
import { finishSiteFolder, type AstroFiles, type PlacedPaths, type SiteFolder } from './5-site-folder.ts';
import { createStaging } from './5-staging.ts';
import { writeSiteLog } from './6-transparency-log.ts';
import { startSearchIndex } from './7-search-index.ts';
import { codeFingerprint, PAGE_CODE } from './cache/code-fingerprint.ts';
import { listPageCache, noteStoredSince, pageCacheForBuild, PRUNE_AFTER, pruneDue, prunePageCache, type PageCacheSettings, type PageCacheStamp } from './cache/page-cache.ts';
import { openPublicIndexCache } from './cache/public-index-cache.ts';
import { placedPagesFile, writePlacedPages } from './cache/placed-pages.ts';
import { noteRecordFoldersAlone, recordFoldersNote, recordsFolderAsNoted } from './cache/record-folders-stamp.ts';
import { limitHeapGrowthWhenRendering } from './large-archive.ts';

/** Where the record pages (/records/<id>/) and the raw record files (/records/<id>.json) live in the output. */
const RECORDS_PATH = 'records';

/**
 * A build that is not the published one (ECHO_ARCHIVE_DEPLOY unset) says so on every page, with the addresses it
 * uses (src/core/config.ts; a deploy build has public ones, or stops before this).
 */
export function localBuildOf(env: Record<string, string | undefined> = process.env): LocalBuild | undefined {
  if (isDeployBuild(env)) return undefined;
  const { baseUrl, gatewayUrl } = siteConfig(env);
  return { siteUrl: baseUrl, gatewayUrl };
}

/** The frame's settings from the site's base path and URL, and the public folder (the stylesheet's URL). */
export function frameSettingsOf(base: string, site: string | undefined, publicDir: URL, local: FrameSettings['local']): FrameSettings {
  const paths = sitePaths(base);
  return { base: paths.base, site, stylesheet: readStylesheetHref(paths, publicDir), local };
}

export interface SiteBuildOptions {
  /** The project (its build cache, code fingerprint and browse script). */
  repo: string;
  /** The archive's folder. */
  root: string;
  frame: FrameSettings;
  logger: ArchiveLogger;
  /** The site's folder: named by scripts/build.ts (the spare, updated in place), or a fresh one of the build's own. */
  site: SiteFolder;
  /** Where the search documents' folder is made (beside the staging folders). */
  stagingParent: string;
  /**
   * Whether the pages are expected from the page cache: Astro's output is the one recorded for this code and
   * configuration (src/site/build/outside-astro.ts), so the last build had them too (ReadSiteArchiveOptions).
   */
  pagesFromCache?: boolean;
}

export interface SiteBuild {
  /** Whether the build cache is on (ECHO_ARCHIVE_NO_CACHE unset, its folder usable). */
  readonly cached: boolean;
  /**
   * Ends the build (see above); Astro's files and the folder the site ended in. Astro's files may still be coming
   * (an `astro build` beside this one): they are waited for last, and if they do not come the build stops.
   */
  finish(astro: AstroFiles | Promise<AstroFiles>): Promise<{ astroFiles: string[]; dir: string }>;
  /** Stops the threads without finishing (a build that failed); a folder of the build's own is removed. */
  stop(): Promise<void>;
}

export async function startSiteBuild({ repo, root, frame, logger, site, stagingParent, pagesFromCache = false }: SiteBuildOptions): Promise<SiteBuild> {
  const searchStaging = createStaging(stagingParent);
  // Taken before the build reads any record or looks at any cache entry (src/core/util/change-time.ts): a record file
  // last changed before it was read by this build as it is now (src/site/build/4-raw-records.ts); the page cache's
  // start (pageCacheSettings) is the same moment on the cache's file system, for the stamp its prune leaves.
  const outputStarted = fileSystemNow(site.dir);
  const cache = pageCacheSettings(repo, logger, site, outputStarted);
  const cacheRoot = buildCacheRoot(repo);
  const browseScript = bundleBrowseScript(repo, cache && { dir: join(cacheRoot, 'browse-script'), code: cache.settings.code });
  const pageSize = browsePageSize(); // a wrong BROWSE_PAGE_SIZE stops the build before any work
  const reading = readSiteArchive(root, logger, { repo, pagesFromCache });
  // The whole archive's model, derived once from these records: the listing pages are rendered from it on the
  // threads, the archive's pages on this thread, and Astro's search page asks for the same records' model. From a turn
  // of its own once the records are read, so that the record pages' batches are handed out first, and in slices, so
  // that the page threads render them while this thread derives it (about half a second at 100,000 records).
  const model = reading.then(async (records) => {
    await nextTurn();
    return archiveModelInSlices(records);
  });
  const listings = { dir: site.dir, script: browseScript.path, jobs: model.then((m) => listingJobs(m, pageSize)) };
  // A folder updated in place: its record folders unchanged since the last build finished in it are not read again;
  // and its records' folder, unchanged since then, holds that build's records' folders and raw files alone
  // (`recordsHeld` of them): it is not walked for the prune unless this build finds fewer (a record gone from the
  // archive). Looked at before any page is placed. At 99,0xx records, 200,000 names read and passed over: 0.4 s.
  const foldersNote = cache && !site.own ? recordFoldersNote(cacheRoot, site.dir, cache.settings.code) : undefined;
  const aloneBefore = foldersNote?.before;
  const recordsHeld = recordsFolderAsNoted(join(site.dir, RECORDS_PATH), foldersNote);
  // The records by id are the model's (its byId), not a set made again.
  const placed = Promise.all([model, listings.jobs]).then(([{ byId }, jobs]) => {
    const files = new PlacedFiles(RECORDS_PATH, byId, recordsHeld !== undefined);
    for (const job of jobs) files.add(listingPageName(job.path));
    return files;
  });
  placed.catch(() => undefined);
  // The index's thread starts once the records (its documents' order) are known; until then the files wait.
  let search: ReturnType<typeof startSearchIndex> | undefined;
  const waiting: [file: string, ids: readonly string[]][] = [];
  const onSearchFile = (file: string, ids: readonly string[]) => (search ? search.add(file, ids) : waiting.push([file, ids]));
  const pages = startRecordPages(reading, {
    frame,
    dir: join(site.dir, RECORDS_PATH),
    logger,
    cache: cache?.settings,
    ...(outputStarted === undefined ? {} : { validatedAfter: outputStarted }),
    ...(aloneBefore === undefined ? {} : { aloneBefore }),
    searchDir: searchStaging,
    onSearchFile,
    // A build from the cached records that renders its pages anyway gets a large archive's heap limit back, if the
    // pages were expected from the cache (another build's pages in a cache two configurations share).
    onRendered: limitHeapGrowthWhenRendering,
    listings,
    pagesFromCache,
  });
  let ended = false;
  const cleanUp = async (finished: boolean) => {
    if (ended) return; // stop() after finish(), as a caller's `finally` does: nothing left to stop
    ended = true;
    if (!finished) await pages.stop();
    await search?.stop();
    rmSync(searchStaging, { recursive: true, force: true });
    if (site.own) rmSync(site.dir, { recursive: true, force: true });
  };
  let records: SiteRecord[];
  try {
    records = await reading;
    search = startSearchIndex(
      records,
      cache && { cacheDir: join(cacheRoot, 'search-index'), code: cache.settings.code, pageCacheDir: cache.settings.dir },
      site.dir,
      (ids) => pages.searchDocuments(ids),
    );
    for (const [file, ids] of waiting.splice(0)) search.add(file, ids);
  } catch (err) {
    await cleanUp(false);
    throw err;
  }
  const log = siteLogOf(records);

  return {
    cached: cache !== undefined,
    async finish(coming) {
      let finished = false;
      try {
        // The pages made from the whole archive, on this thread while the page threads render theirs: once they have
        // their first batches (at 10,000 records these pages took 0.26 s, which the threads spent waiting).
        await pages.started;
        const started = performance.now();
        const keptShards = cache ? openPublicIndexCache(join(cacheRoot, 'public-index'), cache.settings.code) : undefined;
        const archive = await writeArchivePages(records, site.dir, frame, keptShards);
        const shardsKept = keptShards && keptShards.shards.length > 0 ? `; the public index's shards: ${keptShards.taken()} of the last build's ${keptShards.shards.length} taken as they were` : '';
        logger.info(`Wrote ${archive.files.length} pages and documents made from the whole archive (${archive.changed} changed, ${Math.round(performance.now() - started)} ms${shardsKept})`);
        // Then, still while the page threads render, the listings that the prunes at the end work from (at 100,000
        // records the site's 128,000 files outside the records' folders and the page cache's 214,000 entries): in
        // slices, so that the threads keep getting batches, and before this thread joins in rendering, so that they
        // are not left to the end. The records' own folders, 100,000 of them with a page each, are left to the page
        // threads, which list each as they place its page (besidePages): an append at 99,006 records 10.66 → 10.26 s.
        // The pages this thread renders itself find their cache entries in the same listing of the cache. The cache
        // is listed now only when its prune is due whatever this build does (pruneDue); one due only for what the
        // build checked lists it at the end.
        const listing = await listTreeInSlices(site.dir, (await placed).passOver);
        const pruneExpected = cache !== undefined && pruneDue(cache.stamp?.storedSince, { hashed: 0, known: 0, stored: 0 });
        const cacheListing = cache && pruneExpected ? await listPageCache(cache.settings.dir) : undefined;
        // While the page threads finish (this thread mostly waits for them then), what the build placed is set aside
        // from the listing, in slices: the prune at the end has what is left to look at.
        const aside = placed.then(async (files) => {
          for (const path of archive.files) files.add(path);
          return { files, left: await runInSlices(setAsideKept(listing, files)) };
        });
        aside.catch(() => undefined); // a build that fails meanwhile reports its own error
        const done = await pages.finish(cacheListing);
        finished = true;
        const { files, left } = await aside;
        if (done.besidePages) addToListing(left, done.besidePages, `${RECORDS_PATH}/`);
        // The records' folder passed over (recordsHeld), walked after all when this build found fewer of the last
        // build's records' folders there than it left: a record gone from the archive, whose files are to go.
        // Else what it held besides the records' files is listed, as the walk would have: it goes unless placed again.
        if (recordsHeld !== undefined && done.recordFolders !== recordsHeld.records) {
          const inRecords: PassOver = { passesOver: (folder, name, isFolder) => files.passOver.passesOver(`${RECORDS_PATH}/${folder}`, name, isFolder) };
          addToListing(left, await listTreeInSlices(join(site.dir, RECORDS_PATH), inRecords), `${RECORDS_PATH}/`);
        } else if (recordsHeld !== undefined) addToListing(left, { files: [...recordsHeld.besides], folders: [] }, `${RECORDS_PATH}/`);
        let changed = archive.changed + done.changed + Number(writeIfChanged(join(site.dir, browseScript.path), browseScript.bytes));
        files.add(browseScript.path);
        if (log) {
          const written = writeSiteLog(log, site.dir);
          for (const path of written.files) files.add(path);
          changed += written.changed;
          logger.info(`Published the transparency log: ${written.files.length} files under log/`);
        }
        const reused = cache ? ` (${done.reused} from the cache, ${done.pages - done.reused} rendered)` : ' (no cache)';
        logger.info(`Rendered ${done.pages} record page${done.pages === 1 ? '' : 's'}${reused}`);
        const listed = cache ? ` (${done.listingsReused} from the cache, ${done.listings - done.listingsReused} rendered)` : ' (no cache)';
        logger.info(`Rendered ${done.listings} listing page${done.listings === 1 ? '' : 's'}${listed}`);
        logger.info(
          `Published ${done.linked + done.copied} raw record${done.linked + done.copied === 1 ? '' : 's'} (${done.linked} linked, ${done.copied} copied; ${done.rawKnown} the very file validation read, unchanged, not read again)`,
        );
        const indexStarted = performance.now();
        const indexWritten = search!.write(site.dir);
        // While the index's thread writes the index, this thread prunes the page cache when a prune is due.
        if (cache) {
          const checks = { hashed: done.entriesHashed, known: done.entriesKnown, stored: done.entriesStored };
          const pruned = pruneDue(cache.stamp?.storedSince, checks);
          if (pruned) prunePageCache(cache.settings.dir, new Set(done.entries), cache.started, cacheListing);
          else noteStoredSince(cache.settings.dir, cache.stamp!, checks.stored);
          const storedSince = pruned ? 'pruned' : `not pruned: ${cache.stamp!.storedSince + checks.stored} entries stored since the last prune, which is due at ${PRUNE_AFTER}`;
          logger.info(`Page cache: ${done.entriesHashed} entries read and checked by their hash, ${done.entriesKnown} unchanged since the last build checked them (${storedSince})`);
        }
        // Which entry each page holds, for the next build here (cache/placed-pages.ts), as of this build's start: while
        // the index's thread writes the index (20 MB at 99,0xx records, 90 ms of this thread). Right whatever the rest
        // of the build does: a page placed since the start is looked at by the next build anyway.
        if (cache && !site.own && outputStarted !== undefined) writePlacedPages(cacheRoot, site.dir, outputStarted, done.placed);
        const index = await indexWritten;
        for (const path of index.files) files.add(path);
        changed += index.written;
        const fromCache = cache ? `, ${index.reused} from the cache; segments: ${index.segmentsKept} kept, ${index.segmentsMade} made` : '';
        logger.info(`Wrote the search index: ${done.pages} records in ${index.files.length} files (${index.written} changed${fromCache}, ${Math.round(performance.now() - indexStarted)} ms)`);
        const how = site.own ? 'into a new folder' : 'in place';
        const astro = await coming;
        const folder = finishSiteFolder(site, astro, files, left);
        changed += folder.moved;
        // Every record folder now holds its page alone (unless Astro put a file in one): noted for the next build here;
        // and, unless something was placed deeper in the records' folder, what that folder holds.
        if (cache && !site.own && !folder.astro.some((path) => path.startsWith(`${RECORDS_PATH}/`) && path.split('/').length > 2)) {
          // After the records' folder's last change (the prune's, or Astro's redirect moved in): in the same tick, it
          // would not be before the moment, and the next build would walk it.
          const moment = fileSystemNowAfter(site.dir, [join(site.dir, RECORDS_PATH)]);
          const besides = files.othersIn(RECORDS_PATH);
          if (moment !== undefined) noteRecordFoldersAlone(cacheRoot, site.dir, cache.settings.code, moment, besides && { records: files.records, besides });
        }
        const astroWritten =
          'out' in astro
            ? `${folder.moved} of Astro's ${folder.astro.length} among those written`
            : `Astro's ${folder.astro.length} from its recorded output, ${folder.moved} of them written`;
        logger.info(`Updated the site's ${files.size} files ${how}: ${changed} written, ${folder.removed} removed (${astroWritten})`);
        return { astroFiles: folder.astro, dir: site.own && 'out' in astro ? astro.out : site.dir };
      } finally {
        await cleanUp(finished);
      }
    },
    stop: () => cleanUp(false),
  };
}

/** The records' ids: a set of them, or the model's records by id. */
type RecordIds = { has(id: string): boolean; readonly size: number };

/**
 * The site paths a build placed: each record's page and raw file by the record's id under the records' folder
 * (`records`), the rest by path. At 100,000 records the 200,000 paths of the records were made and put into a set on
 * the main thread for each build (0.1 s), for the prune's lookups of the 120,000 files it listed.
 */
export class PlacedFiles implements PlacedPaths {
  readonly #inside: string;
  readonly #ids: RecordIds;
  readonly #others = new Set<string>();
  /**
   * What the walk of the site for the prune passes over (listTreeInSlices): the records' own folders (`<records>/<id>`),
   * which the page threads look into as they place each page (besidePages), and their raw files, which this holds.
   * Without making their 200,000 paths: at 99,0xx records the walk's own time, the prune's lookups and setting aside
   * the raw files it listed took the main thread about 0.5 s in a profile, and take it 0.1 s so.
   */
  readonly passOver: PassOver;

  constructor(records: string, ids: RecordIds, wholeRecordsFolder = false) {
    this.#inside = `${records}/`;
    this.#ids = ids;
    this.passOver = {
      passesOver: (folder, name, isFolder) => {
        if (wholeRecordsFolder && folder === '' && isFolder && name === records) return true;
        if (folder !== this.#inside) return false;
        const id = isFolder ? name : rawRecordIdOf(name);
        return id !== undefined && ids.has(id);
      },
    };
  }

  has(path: string): boolean {
    if (path.startsWith(this.#inside)) {
      const name = path.slice(this.#inside.length);
      const slash = name.indexOf('/');
      const id = slash === -1 ? rawRecordIdOf(name) : name.slice(0, slash);
      if (id !== undefined && (slash === -1 || name === recordPageName(id)) && this.#ids.has(id)) return true;
    }
    return this.#others.has(path);
  }

  add(path: string): void {
    this.#others.add(path);
  }

  /** How many records: each has its page and its raw file. */
  get records(): number {
    return this.#ids.size;
  }

  /** The names of the paths placed besides the records' own right in `folder`; undefined if one lies deeper. */
  othersIn(folder: string): string[] | undefined {
    const inside = `${folder}/`;
    const names: string[] = [];
    for (const path of this.#others) {
      if (!path.startsWith(inside)) continue;
      const name = path.slice(inside.length);
      if (name.includes('/')) return undefined;
      names.push(name);
    }
    return names;
  }

  /** How many paths: two a record, and the others (none of which is a record's). */
  get size(): number {
    return 2 * this.#ids.size + this.#others.size;
  }
}

/**
 * The record-page cache of a build of the project at `project`, unless the caches are off (ECHO_ARCHIVE_NO_CACHE) or
 * its folder cannot be made (then the build says so and renders every page); with the moment the build started, as
 * the cache's file system stamps files, for the stamp it leaves (none when no file can be made there).
 */
function pageCacheSettings(project: string, logger: ArchiveLogger, site: SiteFolder, siteNow: bigint | undefined): { settings: PageCacheSettings; started?: bigint; stamp?: PageCacheStamp } | undefined {
  if (noCacheFromEnv()) return undefined;
  const dir = join(buildCacheRoot(project), 'pages');
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    logger.warn(`The record-page cache ${dir} cannot be used (${(err as Error).message}): every page is rendered.`);
    return undefined;
  }
  const cache = pageCacheForBuild(dir, codeFingerprint(project, PAGE_CODE));
  // A folder updated in place: its pages unchanged since the last build finished in it are known by their own status.
  const file = site.own || siteNow === undefined ? undefined : placedPagesFile(buildCacheRoot(project), site.dir);
  return file === undefined ? cache : { ...cache, settings: { ...cache.settings, placedPages: { file, now: siteNow! } } };
}
