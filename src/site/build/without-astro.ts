/**
 * A site build without `astro build`, for when Astro would make what it made last time (scripts/build.ts): the same
 * build as Astro's integration runs (src/site/build/site-build.ts), with Astro's files written from the output the
 * last `astro build` recorded (src/site/build/cache/astro-output.ts) instead of built again.
 *
 * Why: Astro's own start, setup and bundling cost a build with nothing changed about 2.4 s at 10,000 records, a
 * quarter of a clean build by itself, though its pages depend on nothing an append changes. Whether they would be
 * the same is decided in two steps: before anything is read, by the record's key (code, configuration, frame); once
 * the archive is read, by the search page's filter values. When either differs, or a stored file is missing or
 * damaged, this build stops and says why, and scripts/build.ts runs `astro build`.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { recordsRoot, siteAddress } from '../../core/config.ts';
import { buildCacheRoot, noCacheFromEnv } from '../../core/publish/build-cache.ts';
import type { FrameSettings } from '../render/page-frame.ts';
import type { ArchiveLogger } from './console-logger.ts';
import { astroArchiveInput, astroOutputKey, readRecordedAstroOutput, recordedAstroOutput, type AstroOutputRecord } from './cache/astro-output.ts';
import { frameSettingsOf, localBuildOf, startSiteBuild } from './site-build.ts';

/** The frame Astro's integration works out from astro.config.mjs's site address (siteAddress) and public folder. */
export function frameWithoutAstro(repo: string, env: Record<string, string | undefined> = process.env): FrameSettings {
  const { site, base } = siteAddress(env);
  return frameSettingsOf(base, site, pathToFileURL(join(repo, 'public/')), localBuildOf(env));
}

/**
 * Astro's recorded output for this project as it is now, if the build cache is on and holds one with this code,
 * configuration and frame: else why not, in a few words.
 */
export function recordedOutputFor(repo: string, env: Record<string, string | undefined> = process.env): AstroOutputRecord | string {
  if (noCacheFromEnv(env)) return 'the build cache is off';
  let frame: FrameSettings;
  try {
    frame = frameWithoutAstro(repo, env);
  } catch {
    return 'the configuration is not complete (astro build says why)'; // a deploy build without its public addresses
  }
  const key = astroOutputKey(repo, frame, env);
  if (key === undefined) return "the gateway's keys file cannot be read";
  return recordedAstroOutput(buildCacheRoot(repo, env), key) ?? 'no output of Astro is recorded for this code and configuration';
}

export interface WithoutAstroOptions {
  repo: string;
  /** The site's folder to update in place (the spare, scripts/build.ts). */
  siteDir: string;
  /** Where the build's scratch folders go (beside the staging folders). */
  stagingParent: string;
  record: AstroOutputRecord;
  logger: ArchiveLogger;
}

/**
 * Builds the site into `siteDir`; or says why Astro must run after all, having stopped before the site is finished
 * (what the page threads wrote by then stays in the staging folder, which the Astro build then updates).
 */
export async function buildWithoutAstro({ repo, siteDir, stagingParent, record, logger }: WithoutAstroOptions): Promise<{ built: true } | { built: false; why: string }> {
  const root = resolve(repo, recordsRoot());
  const build = await startSiteBuild({ repo, root, frame: frameWithoutAstro(repo), logger, site: { dir: siteDir, own: false }, stagingParent });
  const why = astroArchiveInput(build.records) !== record.archive ? "the search page's filter values changed" : undefined;
  const contents = why === undefined ? readRecordedAstroOutput(buildCacheRoot(repo), record) : undefined;
  if (contents === undefined) {
    await build.stop();
    return { built: false, why: why ?? "a file of Astro's recorded output is missing or damaged" };
  }
  await build.finish({ recorded: contents });
  return { built: true };
}
