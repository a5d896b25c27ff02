/**
 * The archive's Astro integration: reads and validates the archive once, when the build starts; renders the record
 * pages and the listing pages and publishes the raw record files beside Astro, into the site's folder, which Astro's
 * own files join when the build ends. The files of this folder are its steps, numbered in the order they run (1 stylesheet and browse
 * script, 2 read the archive, 3 record and listing pages on worker threads, 4 raw records beside them, 5 the site's
 * folder, 6 transparency log, 7 search index from the records' search documents). The whole path:
 * ARCHITECTURE.md.
 *
 * - `astro:config:setup`: the stylesheet's versioned href (src/site/build/1-stylesheet.ts), defined for the pages as
 *   import.meta.env.ECHO_STYLESHEET, so that the Astro pages and the record pages link the same file.
 * - `astro:build:start`: the record-chain builder is bundled (src/builder/bundle.ts) beside everything else, and its
 *   two pages wait for it (src/builder/release.ts). The core validates the whole archive
 *   (src/site/build/2-read-archive.ts). An invalid archive stops the build here, before Astro bundles anything, with
 *   the command line's own report. The pages render from this result (handed over, not read again), and the
 *   listing, home and search pages from one model of it, derived once (src/site/model/site-model.ts). The record
 *   pages, then the listing pages (src/site/model/listing-jobs.ts), start rendering on worker threads
 *   (src/site/build/3-record-pages.ts); the browse script they load is bundled (src/site/build/1-browse-script.ts).
 *   Beside each record page the record file is linked for /records/<id>.json, byte for byte
 *   (src/site/build/4-raw-records.ts).
 * - The site's folder: the record pages, raw files, listing pages, browse script, log and search index are placed in
 *   a folder of their own as they are made, never in Astro's output (which Astro empties after `astro:build:start`).
 *   `npm run build` names it (ECHO_ARCHIVE_SITE_DIR: the previous build's site, updated in place, scripts/build.ts);
 *   a bare `astro build` gets a fresh one beside the staging folders.
 * - `astro:build:done`: the last pages are rendered; the browse script, the log and the search index (from the search
 *   documents the page threads wrote beside it, src/site/build/7-search-index.ts) are written into the site's folder,
 *   Astro's own files moved in, and whatever the build did not place removed (src/site/build/5-site-folder.ts). Each
 *   file is written only when its bytes change (src/core/util/update-in-place.ts). A bare `astro build`'s folder then
 *   takes the place of Astro's output.
 * - The page cache (src/site/build/cache/page-cache.ts, under the build cache: src/core/publish/build-cache.ts): a
 *   record or listing page whose inputs and code are unchanged is linked from the cache, not rendered; off with
 *   ECHO_ARCHIVE_NO_CACHE.
 * - `astro dev`: the record pages, the listing pages and the browse script are served by a middleware from the same
 *   renderers, reading the archive on each request (as the dev pages do), so edits to records show up;
 *   src/pages/records/[id].json.ts serves the raw files.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { isDeployBuild, recordsRoot, siteConfig } from '../../core/config.ts';
import { buildCacheRoot, noCacheFromEnv } from '../../core/publish/build-cache.ts';
import { codeFingerprint, PAGE_CODE } from './cache/code-fingerprint.ts';
import { prunePageCache, type PageCacheSettings } from './cache/page-cache.ts';
import { writeIfChanged } from '../../core/util/update-in-place.ts';
import { handOverArchive, readSiteArchive, siteLogOf, type ArchiveLogger } from './2-read-archive.ts';
import { createStaging } from './5-staging.ts';
import { finishSiteFolder, siteFolderFromEnv } from './5-site-folder.ts';
import { sitePaths } from '../model/paths.ts';
import { recordJobs, startRecordPages, type RecordPagesRun } from './3-record-pages.ts';
import { echoHtml } from '../render/echo-html.ts';
import { frameOf, type FrameSettings, type LocalBuild } from '../render/page-frame.ts';
import { recordDocument } from '../render/record-document.ts';
import { readStylesheetHref } from './1-stylesheet.ts';
import { listingPageName, readRecordPage, recordPageName } from './3-record-pages-worker.ts';
import { rawRecordName } from './4-raw-records.ts';
import { writeSiteLog, type SiteLog } from './6-transparency-log.ts';
import { startSearchIndex, type SearchIndexRun } from './7-search-index.ts';
import { bundleBrowseScript, type BrowseScript } from './1-browse-script.ts';
import { listingJobs } from '../model/listing-jobs.ts';
import { browsePageSize } from '../model/listing-pages.ts';
import { archiveModelOf } from '../model/site-model.ts';
import { buildBuilder } from '../../builder/bundle.ts';
import { bundleBeingMade } from '../../builder/release.ts';
import { listingDocument } from '../render/listing-document.ts';

/** Where the record pages (/records/<id>/) and the raw record files (/records/<id>.json) live in the output. */
const RECORDS_PATH = 'records';

export function echoArchive(): AstroIntegration {
  let repo = '';
  let root = '';
  let dotAstro = '';
  let site: { dir: string; own: boolean } | undefined;
  let searchStaging = '';
  /** The site's paths of the record and listing pages and raw files: what the threads place. */
  let placed: Promise<string[]> | undefined;
  let browseScript: BrowseScript | undefined;
  let frame: FrameSettings = { base: '/', site: undefined, stylesheet: '' };
  let pages: RecordPagesRun | undefined;
  let log: SiteLog | undefined;
  let cache: PageCacheSettings | undefined;
  let search: SearchIndexRun | undefined;
  let builder: Promise<void> | undefined;
  return {
    name: 'echo-archive',
    hooks: {
      'astro:config:setup': ({ config, command, updateConfig }) => {
        // RECORDS_DIR is read from the project root (not the shell's working directory).
        repo = fileURLToPath(config.root);
        root = resolve(repo, recordsRoot());
        // Staged in Astro's own build folder: on the output's file system in any usual layout (Astro moves files from it too).
        dotAstro = fileURLToPath(new URL('.astro/', config.root));
        const paths = sitePaths(config.base);
        frame = { base: paths.base, site: config.site, stylesheet: readStylesheetHref(paths, config.publicDir), local: localBuildOf() };
        updateConfig({
          vite: {
            define: {
              'import.meta.env.ECHO_STYLESHEET': JSON.stringify(frame.stylesheet),
              'import.meta.env.ECHO_DEV_SERVER': JSON.stringify(command === 'dev'),
              'import.meta.env.ECHO_LOCAL_BUILD': JSON.stringify(frame.local ?? null),
            },
          },
        });
      },
      'astro:server:setup': ({ server, logger }) => {
        server.middlewares.use((req, res, next) => {
          const url = req.url ?? '';
          const page = devPage(url, { repo, root, frame, logger });
          if (page === undefined) return next();
          page.then(
            (found) => {
              if (found === undefined) return next();
              res.setHeader('Content-Type', found.type);
              res.end(found.body);
            },
            (err: unknown) => next(err),
          );
        });
      },
      'astro:build:start': async ({ logger }) => {
        // Astro empties its output folder after this hook, so the pages and files are placed in the site's folder
        // (5-site-folder.ts): rendered and linked on worker threads, which start while the archive is validated.
        const named = siteFolderFromEnv();
        site = named === undefined ? { dir: createStaging(dotAstro), own: true } : { dir: named, own: false };
        searchStaging = createStaging(dotAstro);
        cache = pageCacheSettings(repo, logger);
        browseScript = bundleBrowseScript(repo);
        const pageSize = browsePageSize(); // a wrong BROWSE_PAGE_SIZE stops the build before any work
        // The record-chain builder's bundle, made by esbuild's own process beside everything that follows (a step of its
        // own before Astro's start cost 0.7–0.9 s of every build); its two pages wait for it (release.ts).
        const started = performance.now();
        builder = buildBuilder().then((file) => logger.info(`Bundled the record-chain builder: ${relative(repo, file)} (${Math.round(performance.now() - started)} ms)`));
        builder.catch(() => undefined); // the pages and astro:build:done report it
        bundleBeingMade(builder);
        const reading = readSiteArchive(root, logger, { repo });
        // The listing, home and search pages' model, derived once from these records (the Astro pages ask for the same
        // records' model and get this one): the listing pages are rendered from it beside Astro.
        const model = reading.then((records) => archiveModelOf(records));
        const listings = { dir: site.dir, script: browseScript.path, jobs: model.then((m) => listingJobs(m, pageSize)) };
        placed = Promise.all([reading, listings.jobs]).then(([records, jobs]) => [
          ...records.flatMap(({ id }) => [`${RECORDS_PATH}/${recordPageName(id)}`, `${RECORDS_PATH}/${rawRecordName(id)}`]),
          ...jobs.map((job) => listingPageName(job.path)),
        ]);
        placed.catch(() => undefined);
        // The index's thread starts once the records (its documents' order) are known; until then the files wait.
        const waiting: string[] = [];
        const onSearchFile = (file: string) => (search ? search.add(file) : waiting.push(file));
        const run = startRecordPages(reading, { frame, dir: join(site.dir, RECORDS_PATH), logger, cache, searchDir: searchStaging, onSearchFile, listings });
        let read: Awaited<typeof reading>;
        try {
          read = await reading;
          search = startSearchIndex(read, cache ? join(buildCacheRoot(repo), 'search-index') : undefined);
          for (const file of waiting.splice(0)) search.add(file);
        } catch (err) {
          await builder.catch(() => undefined); // not left half written when the build stops here
          await run.stop();
          await search?.stop();
          search = undefined;
          rmSync(searchStaging, { recursive: true, force: true });
          if (site.own) rmSync(site.dir, { recursive: true, force: true });
          throw err;
        }
        handOverArchive(read);
        log = siteLogOf(read);
        pages = run;
      },
      'astro:build:done': async ({ dir, logger }) => {
        let finished = false;
        try {
          await builder; // its pages waited for it, so this only says how it went
          const done = await pages?.finish();
          finished = true;
          if (done === undefined) throw new Error('astro:build:done came without a started build (astro:build:start)');
          const out = fileURLToPath(dir);
          const files = new Set(await placed);
          let changed = done.changed + Number(writeIfChanged(join(site!.dir, browseScript!.path), browseScript!.bytes));
          files.add(browseScript!.path);
          if (log) {
            const written = writeSiteLog(log, site!.dir);
            for (const path of written.files) files.add(path);
            changed += written.changed;
            logger.info(`Published the transparency log: ${written.files.length} files under log/`);
          }
          const reused = cache ? ` (${done.reused} from the cache, ${done.pages - done.reused} rendered)` : ' (no cache)';
          logger.info(`Rendered ${done.pages} record page${done.pages === 1 ? '' : 's'}${reused}`);
          const listings = cache ? ` (${done.listingsReused} from the cache, ${done.listings - done.listingsReused} rendered)` : ' (no cache)';
          logger.info(`Rendered ${done.listings} listing page${done.listings === 1 ? '' : 's'}${listings}`);
          if (cache) prunePageCache(cache.dir, new Set(done.entries));
          logger.info(`Published ${done.linked + done.copied} raw record${done.linked + done.copied === 1 ? '' : 's'} (${done.linked} linked, ${done.copied} copied)`);
          const started = performance.now();
          const index = await search!.write(site!.dir);
          for (const path of index.files) files.add(path);
          changed += index.written;
          const fromCache = cache ? `, ${index.reused} from the cache` : '';
          logger.info(`Wrote the search index: ${done.pages} records in ${index.files.length} files (${index.written} changed${fromCache}, ${Math.round(performance.now() - started)} ms)`);
          const folder = finishSiteFolder(site!, out, files);
          changed += folder.moved;
          const how = site!.own ? 'into a new folder' : 'in place';
          logger.info(`Updated the site's ${files.size} files ${how}: ${changed} written, ${folder.removed} removed (${folder.moved} of Astro's ${folder.astro} among those written)`);
        } finally {
          if (!finished) await pages?.stop();
          pages = undefined;
          log = undefined;
          await search?.stop();
          search = undefined;
          rmSync(searchStaging, { recursive: true, force: true });
          if (site?.own) rmSync(site.dir, { recursive: true, force: true });
          site = undefined;
          placed = undefined;
          handOverArchive(undefined);
          bundleBeingMade(undefined);
          builder = undefined;
        }
      },
    },
  };
}

/**
 * The record-page cache of a build of the project at `project`, unless the caches are off (ECHO_ARCHIVE_NO_CACHE) or
 * its folder cannot be made (then the build says so and renders every page).
 */
function pageCacheSettings(project: string, logger: ArchiveLogger): PageCacheSettings | undefined {
  if (noCacheFromEnv()) return undefined;
  const dir = join(buildCacheRoot(project), 'pages');
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    logger.warn(`The record-page cache ${dir} cannot be used (${(err as Error).message}): every page is rendered.`);
    return undefined;
  }
  return { dir, code: codeFingerprint(project, PAGE_CODE), build: randomUUID() };
}

/** The record id a request for a record page names (`<base>records/<id>/`, optionally `index.html`), if any. */
export function recordPageId(url: string, base: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0]!;
  const prefix = `${base}records/`;
  if (!path.startsWith(prefix)) return undefined;
  const match = /^([^/]+)\/(?:index\.html)?$/.exec(path.slice(prefix.length));
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

/** The listing page a request names (its path from the site's root, "browse/…/"), if it is under /browse/. */
export function listingPagePath(url: string, base: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0]!;
  if (!path.startsWith(`${base}browse/`)) return undefined;
  const match = /^(browse\/(?:[^/]+\/)*)(?:index\.html)?$/.exec(path.slice(base.length));
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

interface DevContext {
  repo: string;
  root: string;
  frame: FrameSettings;
  logger: ArchiveLogger;
}

/**
 * What `astro dev` serves beside Astro's own pages, from the same renderers as the build, reading the archive on each
 * request so that edits show up: a record page, a listing page, the browse script. Undefined: not ours (Astro's).
 */
function devPage(url: string, ctx: DevContext): Promise<{ type: string; body: string | Uint8Array } | undefined> | undefined {
  const html = (body: string | undefined) => (body === undefined ? undefined : { type: 'text/html; charset=utf-8', body });
  const id = recordPageId(url, ctx.frame.base);
  if (id !== undefined) return devRecordPage(id, ctx).then(html);
  if (url.startsWith(`${ctx.frame.base}scripts/browse-filter.`)) {
    return Promise.resolve({ type: 'text/javascript; charset=utf-8', body: bundleBrowseScript(ctx.repo).bytes });
  }
  const listing = listingPagePath(url, ctx.frame.base);
  if (listing !== undefined) return devListingPage(listing, ctx).then(html);
  return undefined;
}

async function devRecordPage(id: string, { root, frame, logger }: DevContext): Promise<string | undefined> {
  const job = recordJobs(await readSiteArchive(root, logger)).find((j) => j.page.entry.id === id);
  if (job === undefined) return undefined;
  return recordDocument(readRecordPage(job), frameOf(frame, true), echoHtml);
}

async function devListingPage(path: string, { repo, root, frame, logger }: DevContext): Promise<string | undefined> {
  const records = await readSiteArchive(root, logger);
  const job = listingJobs(archiveModelOf(records), browsePageSize()).find((j) => j.path === path);
  if (job === undefined) return undefined;
  return listingDocument(job, frameOf(frame, true), bundleBrowseScript(repo).path);
}

/**
 * A build that is not the published one (ECHO_ARCHIVE_DEPLOY unset) says so on every page, with the addresses it
 * uses (src/core/config.ts; a deploy build has public ones, or stops before this).
 */
export function localBuildOf(env: Record<string, string | undefined> = process.env): LocalBuild | undefined {
  if (isDeployBuild(env)) return undefined;
  const { baseUrl, gatewayUrl } = siteConfig(env);
  return { siteUrl: baseUrl, gatewayUrl };
}
