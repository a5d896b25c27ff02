/**
 * The archive's Astro integration: reads and validates the archive once, when the build starts; renders the record
 * pages and publishes the raw record files beside Astro, and moves them into the output when the build ends.
 * The files of this folder are its steps, numbered in the order they run (1 stylesheet, 2 read the archive, 3 record
 * pages on worker threads, 4 raw records beside them, 5 staging moved into the output, 6 transparency log, 7 search
 * index from the records' search documents). The whole path: ARCHITECTURE.md.
 *
 * - `astro:config:setup`: the stylesheet's versioned href (src/site/build/1-stylesheet.ts), defined for the pages as
 *   import.meta.env.ECHO_STYLESHEET, so that the Astro pages and the record pages link the same file.
 * - `astro:build:start`: the core validates the whole archive (src/site/build/2-read-archive.ts). An invalid archive stops
 *   the build here, before anything is bundled, with the command line's own report. The pages render from this
 *   result (handed over, not read again). The record pages start rendering on worker threads (src/site/build/3-record-pages.ts).
 *   Beside each page the record file is linked for /records/<id>.json, byte for byte (src/site/build/4-raw-records.ts).
 * - `astro:build:done`: the last record pages are rendered, and pages and files move into the output's records/;
 *   the search index is written from the search documents the page threads made (src/site/build/7-search-index.ts).
 * - The record-page cache (src/site/build/cache/page-cache.ts, under the build cache: src/core/publish/build-cache.ts):
 *   a page whose inputs and code are unchanged is linked from the cache, not rendered; off with ECHO_ARCHIVE_NO_CACHE.
 * - `astro dev`: the record pages are served by a middleware from the same renderer, reading the archive on each
 *   request (as the dev pages do), so edits to records show up; src/pages/records/[id].json.ts serves the raw files.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { isDeployBuild, recordsRoot, siteConfig } from '../../core/config.ts';
import { buildCacheRoot, noCacheFromEnv } from '../../core/publish/build-cache.ts';
import { codeFingerprint, PAGE_CODE } from './cache/code-fingerprint.ts';
import { prunePageCache, type PageCacheSettings } from './cache/page-cache.ts';
import { moveEntries } from '../../core/util/move-entries.ts';
import { handOverArchive, readSiteArchive, siteLogOf, type ArchiveLogger } from './2-read-archive.ts';
import { createStaging } from './5-staging.ts';
import { sitePaths } from '../model/paths.ts';
import { recordJobs, startRecordPages, type RecordPagesRun } from './3-record-pages.ts';
import { echoHtml } from '../render/echo-html.ts';
import { frameOf, type FrameSettings, type LocalBuild } from '../render/page-frame.ts';
import { recordDocument } from '../render/record-document.ts';
import { readStylesheetHref } from './1-stylesheet.ts';
import { readRecordPage } from './3-record-pages-worker.ts';
import { writeSiteLog, type SiteLog } from './6-transparency-log.ts';
import { searchIndexFor, writeSearchIndex } from './7-search-index.ts';
import type { SearchIndexBuilder } from '../../core/search/build-index.ts';

/** Where the record pages (/records/<id>/) and the raw record files (/records/<id>.json) live in the output. */
const RECORDS_PATH = 'records';

export function echoArchive(): AstroIntegration {
  let repo = '';
  let root = '';
  let dotAstro = '';
  let staging = '';
  let frame: FrameSettings = { base: '/', site: undefined, stylesheet: '' };
  let pages: RecordPagesRun | undefined;
  let log: SiteLog | undefined;
  let cache: PageCacheSettings | undefined;
  let search: SearchIndexBuilder | undefined;
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
          const id = recordPageId(req.url ?? '', frame.base);
          if (id === undefined) return next();
          devRecordPage(id, root, frame, logger).then(
            (html) => {
              if (html === undefined) return next();
              res.setHeader('Content-Type', 'text/html; charset=utf-8');
              res.end(html);
            },
            (err: unknown) => next(err),
          );
        });
      },
      'astro:build:start': async ({ logger }) => {
        // Astro empties the output folder after this hook, so the record pages and raw files are staged and moved
        // in when it is done: rendered and linked on worker threads, which start while the archive is validated.
        staging = createStaging(dotAstro);
        cache = pageCacheSettings(repo, logger);
        const reading = readSiteArchive(root, logger, { repo });
        // Made when the records are known (the page threads only start on batches then): the documents arrive in batches.
        const searchReady = reading.then((records) => (search = searchIndexFor(records)));
        searchReady.catch(() => undefined);
        const run = startRecordPages(reading, { frame, dir: staging, logger, cache, onSearchDocuments: (docs) => docs.forEach((d) => search!.add(d)) });
        let records: Awaited<typeof reading>;
        try {
          records = await reading;
        } catch (err) {
          await run.stop();
          rmSync(staging, { recursive: true, force: true });
          throw err;
        }
        handOverArchive(records);
        log = siteLogOf(records);
        pages = run;
      },
      'astro:build:done': async ({ dir, logger }) => {
        let finished = false;
        try {
          const done = await pages?.finish();
          finished = true;
          moveEntries(staging, join(fileURLToPath(dir), RECORDS_PATH), (name) => `${RECORDS_PATH}/${name} would replace a file Astro built there`);
          if (log) logger.info(`Published the transparency log: ${writeSiteLog(log, fileURLToPath(dir))} files under log/`);
          if (done) {
            const reused = cache ? ` (${done.reused} from the cache, ${done.pages - done.reused} rendered)` : ' (no cache)';
            logger.info(`Rendered ${done.pages} record page${done.pages === 1 ? '' : 's'}${reused}`);
            if (cache) prunePageCache(cache.dir, new Set(done.entries));
            logger.info(`Published ${done.linked + done.copied} raw record${done.linked + done.copied === 1 ? '' : 's'} (${done.linked} linked, ${done.copied} copied)`);
            const started = performance.now();
            const files = writeSearchIndex(search!, fileURLToPath(dir));
            logger.info(`Wrote the search index: ${done.pages} records in ${files} files (${Math.round(performance.now() - started)} ms)`);
          }
        } finally {
          if (!finished) await pages?.stop();
          pages = undefined;
          log = undefined;
          search = undefined;
          rmSync(staging, { recursive: true, force: true });
          handOverArchive(undefined);
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

async function devRecordPage(id: string, root: string, frame: FrameSettings, logger: ArchiveLogger): Promise<string | undefined> {
  const job = recordJobs(await readSiteArchive(root, logger)).find((j) => j.page.entry.id === id);
  if (job === undefined) return undefined;
  return recordDocument(readRecordPage(job), frameOf(frame, true), echoHtml);
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
