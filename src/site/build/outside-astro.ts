/**
 * The site build of `npm run build` (scripts/build.ts): in its own process, outside Astro's. Astro's pages read
 * nothing of the archive (the archive's pages are made here: src/site/render/archive-pages.ts; the search page's
 * filters come from the schema), so Astro's files come one of two ways, and this build waits for them only at its
 * very end, when they join the site's folder:
 *
 * - from the output the last `astro build` recorded (src/site/build/cache/astro-output.ts), when it was made by this
 *   code and configuration: no `astro build` at all, which saves Astro's start, setup and bundling (about 2.4 s at
 *   10,000 records, a quarter of a clean build);
 * - else from an `astro build` of Astro's own pages (src/site/build/astro-pages-only.ts: the integration then leaves
 *   the archive alone and records what Astro made), run as a child process beside this build, or before it for a
 *   large archive (src/site/build/large-archive.ts), so that Astro's memory and the archive's are never held at once.
 *
 * A bare `astro build` still builds the whole site inside Astro's process (src/site/build/integration.ts).
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { recordsRoot, siteAddress } from '../../core/config.ts';
import { buildCacheRoot, noCacheFromEnv } from '../../core/publish/build-cache.ts';
import type { FrameSettings } from '../render/page-frame.ts';
import type { ArchiveLogger } from './console-logger.ts';
import { astroOutputKey, readRecordedAstroOutput, recordedAstroOutput } from './cache/astro-output.ts';
import type { AstroFiles } from './5-site-folder.ts';
import { frameSettingsOf, localBuildOf, startSiteBuild } from './site-build.ts';

/**
 * The frame Astro's integration works out from astro.config.mjs's site address (siteAddress) and public folder. A
 * deploy build without its public addresses throws here, saying what to set (src/core/config.ts).
 */
export function frameOutsideAstro(repo: string, env: Record<string, string | undefined> = process.env): FrameSettings {
  const { site, base } = siteAddress(env);
  return frameSettingsOf(base, site, pathToFileURL(join(repo, 'public/')), localBuildOf(env));
}

/**
 * Astro's recorded output for this project as it is now (its bytes by path, each checked against its hash), if the
 * build cache is on and holds one with this code, configuration and frame: else why not, in a few words.
 */
export function recordedOutputFor(repo: string, frame: FrameSettings, env: Record<string, string | undefined> = process.env): ReadonlyMap<string, Uint8Array> | string {
  if (noCacheFromEnv(env)) return 'the build cache is off';
  const key = astroOutputKey(repo, frame, env);
  if (key === undefined) return "the gateway's keys file cannot be read";
  const record = recordedAstroOutput(buildCacheRoot(repo, env), key);
  if (record === undefined) return 'no output of Astro is recorded for this code and configuration';
  return readRecordedAstroOutput(buildCacheRoot(repo, env), record) ?? "a file of Astro's recorded output is missing or damaged";
}

export interface OutsideAstroOptions {
  repo: string;
  frame: FrameSettings;
  /** The site's folder to update in place (the spare, scripts/build.ts). */
  siteDir: string;
  /** Where the build's scratch folders go (beside the staging folders). */
  stagingParent: string;
  /** Astro's files: recorded, or (a promise of) the output folder of the `astro build` running beside this build. */
  astro: AstroFiles | Promise<AstroFiles>;
  /**
   * Astro's files are the output recorded for this code and configuration: an earlier build's, whose pages the page
   * cache holds too (SiteBuildOptions.pagesFromCache).
   */
  pagesFromCache?: boolean;
  logger: ArchiveLogger;
}

/** Builds the site into `siteDir`. If Astro's files do not come (its build failed), the build stops and says why. */
export async function buildOutsideAstro({ repo, frame, siteDir, stagingParent, astro, pagesFromCache = false, logger }: OutsideAstroOptions): Promise<void> {
  const build = await startSiteBuild({ repo, root: resolve(repo, recordsRoot()), frame, logger, site: { dir: siteDir, own: false }, stagingParent, pagesFromCache });
  await build.finish(astro);
}
