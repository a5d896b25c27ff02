/**
 * Astro's output, kept in the build cache, so that a build whose Astro inputs are unchanged need not run `astro build`
 * (scripts/build.ts, src/site/build/outside-astro.ts).
 *
 * Astro builds only pages that read nothing of the archive (src/site/render/archive-pages.ts makes the pages made from
 * it, and the search page's filters come from the schema: src/site/model/search-filters.ts): the code, the
 * configuration, the gateway's published keys and the example draft decide them. After each `astro build` the build
 * records what Astro made: its files, each stored once by the SHA-256 of its bytes, under a key over all of those
 * inputs. A later build with the same key writes those files instead of running Astro.
 *
 * Never trusted, only checked: a stored file is used only when its bytes hash to its name, and any file missing or
 * damaged means Astro runs. The key covers whole folders (the code fingerprint, src/site/build/cache/code-fingerprint.ts)
 * and every environment variable of the project's own (ASTRO_ENV; tests/site/astro-output.test.ts fails when the
 * source reads one it does not match), so that what could change a page of Astro's changes the key.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalSha256, sha256Hex } from '../../../core/crypto/sha256.ts';
import { CACHE_DIR_ENV, NO_CACHE_ENV } from '../../../core/publish/build-cache.ts';
import { writeIfChanged } from '../../../core/util/update-in-place.ts';
import { publishedGatewayKeys } from '../../../gateway/published-keys.ts';
import type { FrameSettings } from '../../render/page-frame.ts';
import { ASTRO_PAGES_ONLY_ENV } from '../astro-pages-only.ts';
import { codeFingerprint, PAGE_CODE } from './code-fingerprint.ts';

/** The record's format: a record of another format is not read. */
export const ASTRO_OUTPUT_FORMAT = 2;

/** Its folder under the build cache: record.json and the files, files/<sha256>. */
export const ASTRO_OUTPUT_DIR = 'astro-output';

/** The project's environment variables, any of which may change a page Astro builds. */
export const ASTRO_ENV = /^(ECHO_|GATEWAY_|SITE_URL$|LOG_SIGNING_KEY|INDEX_SHARD_BYTES$|BROWSE_PAGE_SIZE$)/;

/** Those that say where and how this one build runs, not what it makes. */
const BUILD_ONLY_ENV: ReadonlySet<string> = new Set([ASTRO_PAGES_ONLY_ENV, CACHE_DIR_ENV, NO_CACHE_ENV]);

/** Files Astro's pages read that are not code: the example draft of /contributing/. */
const ASTRO_FILES: readonly string[] = ['examples'];

export interface AstroOutputRecord {
  format: number;
  key: string;
  /** Astro's files: path from the site's root → SHA-256 of the bytes. */
  files: Record<string, string>;
}

/**
 * The key of Astro's output for this code, configuration and frame (base path, site URL, stylesheet, local build).
 * Undefined when it cannot be worked out (the gateway's keys file unreadable): Astro then runs, and says why.
 */
export function astroOutputKey(repo: string, frame: FrameSettings, env: Record<string, string | undefined> = process.env): string | undefined {
  let gatewayKeys: unknown;
  try {
    gatewayKeys = publishedGatewayKeys(env);
  } catch {
    return undefined;
  }
  const vars = Object.entries(env)
    .filter(([name, value]) => ASTRO_ENV.test(name) && !BUILD_ONLY_ENV.has(name) && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return canonicalSha256({
    format: ASTRO_OUTPUT_FORMAT,
    code: codeFingerprint(repo, PAGE_CODE),
    files: codeFingerprint(repo, ASTRO_FILES),
    frame: { base: frame.base, site: frame.site ?? null, stylesheet: frame.stylesheet, local: frame.local ?? null },
    env: vars,
    gatewayKeys,
  });
}

const recordFile = (cacheRoot: string) => join(cacheRoot, ASTRO_OUTPUT_DIR, 'record.json');
const storedFile = (cacheRoot: string, sha256: string) => join(cacheRoot, ASTRO_OUTPUT_DIR, 'files', sha256);

/** The recorded output, if it has this key. */
export function recordedAstroOutput(cacheRoot: string, key: string): AstroOutputRecord | undefined {
  let record: AstroOutputRecord;
  try {
    record = JSON.parse(readFileSync(recordFile(cacheRoot), 'utf8')) as AstroOutputRecord;
  } catch {
    return undefined;
  }
  if (record?.format !== ASTRO_OUTPUT_FORMAT || record.key !== key || typeof record.files !== 'object' || record.files === null) return undefined;
  return record;
}

/**
 * Records Astro's output: the files at `paths` under `dir` (the site's folder, Astro's files moved in) are stored by
 * their hashes and the record written last, so that a record never names a file not stored. Files of earlier records
 * go.
 */
export function recordAstroOutput(cacheRoot: string, key: string, dir: string, paths: readonly string[]): void {
  const files: Record<string, string> = {};
  const keep = new Set<string>();
  mkdirSync(join(cacheRoot, ASTRO_OUTPUT_DIR, 'files'), { recursive: true });
  for (const path of [...paths].sort()) {
    const bytes = readFileSync(join(dir, path));
    const sha256 = sha256Hex(bytes);
    files[path] = sha256;
    keep.add(sha256);
    writeIfChanged(storedFile(cacheRoot, sha256), bytes); // a damaged copy is replaced, never trusted
  }
  const record: AstroOutputRecord = { format: ASTRO_OUTPUT_FORMAT, key, files };
  writeFileSync(recordFile(cacheRoot), `${JSON.stringify(record)}\n`);
  for (const name of readdirSync(join(cacheRoot, ASTRO_OUTPUT_DIR, 'files'))) {
    if (!keep.has(name)) rmSync(storedFile(cacheRoot, name), { force: true });
  }
}

/** Forgets the recorded output (a build that could not record it: a record must never outlive its files). */
export function forgetAstroOutput(cacheRoot: string): void {
  rmSync(recordFile(cacheRoot), { force: true });
}

/** The recorded files' bytes by path; undefined when any stored file is missing or its bytes do not hash to its name. */
export function readRecordedAstroOutput(cacheRoot: string, record: AstroOutputRecord): Map<string, Buffer> | undefined {
  const contents = new Map<string, Buffer>();
  for (const [path, sha256] of Object.entries(record.files)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(storedFile(cacheRoot, sha256));
    } catch {
      return undefined;
    }
    if (sha256Hex(bytes) !== sha256) return undefined;
    contents.set(path, bytes);
  }
  return contents;
}
