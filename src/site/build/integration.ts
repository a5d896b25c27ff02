/**
 * The archive's Astro integration: runs the site build (src/site/build/site-build.ts) beside Astro's own, which
 * reads and validates the archive when the build starts, renders the record pages, the listing pages and the pages
 * made from the whole archive outside Astro, into the site's folder, which Astro's own files join when the build ends.
 * The build's files are its steps, numbered in the order they run (1 stylesheet and browse script, 2 read the archive,
 * 3 record and listing pages on worker threads and the archive's pages, 4 raw records beside them, 5 the site's
 * folder, 6 transparency log, 7 search index from the records' search documents). The whole path: ARCHITECTURE.md.
 *
 * - `astro:config:setup`: the frame's settings (base path, site URL, the stylesheet's versioned href:
 *   src/site/build/1-stylesheet.ts), the href defined for the pages as import.meta.env.ECHO_STYLESHEET, so that the
 *   Astro pages and the record pages link the same file.
 * - `astro:build:start`: the record-chain builder is bundled (src/builder/bundle.ts) beside everything else, and its
 *   two pages wait for it (src/builder/release.ts). The site build starts: the core validates the whole archive (an
 *   invalid archive stops the build here, before Astro bundles anything, with the command line's own report), and the
 *   record and listing pages start rendering on worker threads. Astro's pages read nothing of the archive.
 * - `astro:build:done`: the site build finishes (the archive's pages, the last record and listing pages, the browse
 *   script, the log, the search index), Astro's own files are moved in and whatever the build did not place removed
 *   (src/site/build/5-site-folder.ts); each file is written only when its bytes change. Then Astro's output is
 *   recorded in the build cache (src/site/build/cache/astro-output.ts), so that the next build with the same code and
 *   configuration can run without Astro (scripts/build.ts, src/site/build/outside-astro.ts).
 * - The site's folder: a bare `astro build` gets a fresh one beside the staging folders, which then takes the place of
 *   Astro's output.
 * - `npm run build` runs `astro build` for Astro's own pages only (src/site/build/astro-pages-only.ts): the hooks
 *   then bundle the builder and record Astro's output, and the site build runs in scripts/build.ts's own process
 *   (src/site/build/outside-astro.ts), with Astro's files moved in from Astro's output folder.
 * - `astro dev`: the record pages, the listing pages, the archive's pages and the browse script are served by a
 *   middleware from the same renderers, reading the archive on each request (as the dev pages do), so edits to records
 *   show up; src/pages/records/[id].json.ts serves the raw files.
 */
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { recordsRoot, siteConfig } from '../../core/config.ts';
import { buildCacheRoot, noCacheFromEnv } from '../../core/publish/build-cache.ts';
import { filesUnder } from '../../core/util/update-in-place.ts';
import { indexShardBytes } from '../../core/publish/public-index.ts';
import { buildBuilder } from '../../builder/bundle.ts';
import { bundleBeingMade } from '../../builder/release.ts';
import { listingJobs } from '../model/listing-jobs.ts';
import { browsePageSize } from '../model/listing-pages.ts';
import { archiveModelOf } from '../model/site-model.ts';
import { archivePageAt, isArchivePagePath } from '../render/archive-pages.ts';
import { echoHtml } from '../render/echo-html.ts';
import { listingDocument } from '../render/listing-document.ts';
import { frameOf, type FrameSettings } from '../render/page-frame.ts';
import { recordDocument } from '../render/record-document.ts';
import { devBrowseScript } from './1-browse-script.ts';
import { readSiteArchive } from './2-read-archive.ts';
import type { ArchiveLogger } from './console-logger.ts';
import { recordJobs } from './3-record-pages.ts';
import { readRecordPage } from './3-record-pages-worker.ts';
import { createStaging } from './5-staging.ts';
import { astroOutputKey, forgetAstroOutput, recordAstroOutput } from './cache/astro-output.ts';
import { astroPagesOnly } from './astro-pages-only.ts';
import { frameSettingsOf, localBuildOf, startSiteBuild, type SiteBuild } from './site-build.ts';

export function echoArchive(): AstroIntegration {
  let repo = '';
  let root = '';
  let dotAstro = '';
  let frame: FrameSettings = { base: '/', site: undefined, stylesheet: '' };
  /** The build beside Astro's, from astro:build:start to astro:build:done (src/site/build/site-build.ts). */
  let build: SiteBuild | undefined;
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
        frame = frameSettingsOf(config.base, config.site, config.publicDir, localBuildOf());
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
        // The record-chain builder's bundle, made by esbuild's own process beside everything that follows (a step of its
        // own before Astro's start cost 0.7–0.9 s of every build); its two pages wait for it (release.ts).
        const started = performance.now();
        builder = buildBuilder().then((file) => logger.info(`Bundled the record-chain builder: ${relative(repo, file)} (${Math.round(performance.now() - started)} ms)`));
        builder.catch(() => undefined); // the pages and astro:build:done report it
        bundleBeingMade(builder);
        if (astroPagesOnly()) return; // the site build runs in scripts/build.ts's process
        // Astro empties its output folder after this hook, so the pages and files are placed in a folder of the build's
        // own (5-site-folder.ts): rendered and linked on worker threads, which start while the archive is validated.
        try {
          build = await startSiteBuild({ repo, root, frame, logger, site: { dir: createStaging(dotAstro), own: true }, stagingParent: dotAstro });
        } catch (err) {
          await builder.catch(() => undefined); // not left half written when the build stops here
          throw err;
        }
      },
      'astro:build:done': async ({ dir, logger }) => {
        const running = build;
        try {
          await builder; // its pages waited for it, so this only says how it went
          const out = fileURLToPath(dir);
          if (astroPagesOnly()) {
            // Astro's files stay in its output folder, for scripts/build.ts to move in.
            if (!noCacheFromEnv()) recordAstro(repo, frame, out, filesUnder(out), logger);
            return;
          }
          if (running === undefined) throw new Error('astro:build:done came without a started build (astro:build:start)');
          const { astroFiles, dir: final } = await running.finish({ out });
          if (running.cached) recordAstro(repo, frame, final, astroFiles, logger);
        } finally {
          await running?.stop();
          build = undefined;
          bundleBeingMade(undefined);
          builder = undefined;
        }
      },
    },
  };
}

/**
 * Records what Astro built (src/site/build/cache/astro-output.ts), so that the next build with the same inputs can
 * keep it without running Astro. A record that cannot be made is forgotten, never left naming other files.
 */
function recordAstro(repo: string, frame: FrameSettings, dir: string, files: string[], logger: ArchiveLogger): void {
  const cacheRoot = buildCacheRoot(repo);
  try {
    const key = astroOutputKey(repo, frame);
    if (key === undefined) return forgetAstroOutput(cacheRoot);
    recordAstroOutput(cacheRoot, key, dir, files);
  } catch (err) {
    forgetAstroOutput(cacheRoot);
    logger.warn(`Astro's output could not be recorded in the build cache (${(err as Error).message}): the next build runs Astro again.`);
  }
}

/**
 * The path a request names from the site's root (the base path and any query or fragment taken off, percent-decoded),
 * if it is under the base path and decodes.
 */
function pathUnderBase(url: string, base: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0]!;
  if (!path.startsWith(base)) return undefined;
  try {
    return decodeURIComponent(path.slice(base.length));
  } catch {
    return undefined;
  }
}

/** The record id a request for a record page names (`<base>records/<id>/`, optionally `index.html`), if any. */
export function recordPageId(url: string, base: string): string | undefined {
  return /^records\/([^/]+)\/(?:index\.html)?$/.exec(pathUnderBase(url, base) ?? '')?.[1];
}

/** The listing page a request names (its path from the site's root, "browse/…/"), if it is under /browse/. */
export function listingPagePath(url: string, base: string): string | undefined {
  return /^(browse\/(?:[^/]+\/)*)(?:index\.html)?$/.exec(pathUnderBase(url, base) ?? '')?.[1];
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
    return Promise.resolve({ type: 'text/javascript; charset=utf-8', body: devBrowseScript(ctx.repo).bytes });
  }
  const archivePath = archivePagePath(url, ctx.frame.base);
  const archivePage = () => (archivePath === undefined ? Promise.resolve(undefined) : devArchivePage(archivePath, ctx));
  const listing = listingPagePath(url, ctx.frame.base);
  // /browse/<facet>/ is a page about the facet's counts, not a listing: it is the archive pages'.
  if (listing !== undefined) return devListingPage(listing, ctx).then((found) => (found === undefined ? archivePage() : html(found)));
  if (archivePath !== undefined) return archivePage();
  return undefined;
}

/** The path from the site's root of the archive page a request names (src/site/render/archive-pages.ts), if any. */
export function archivePagePath(url: string, base: string): string | undefined {
  const path = pathUnderBase(url, base);
  if (path === undefined) return undefined;
  const page = path === '' || path.endsWith('/') ? `${path}index.html` : path;
  return isArchivePagePath(page) ? page : undefined;
}

async function devArchivePage(path: string, { root, frame, logger }: DevContext): Promise<{ type: string; body: string } | undefined> {
  const records = await readSiteArchive(root, logger);
  const page = archivePageAt({ records, frame: frameOf(frame, true), config: siteConfig(), shardBytes: indexShardBytes() }, path);
  return page === undefined ? undefined : { type: page.type, body: page.make() };
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
  return listingDocument(job, frameOf(frame, true), devBrowseScript(repo).path);
}
