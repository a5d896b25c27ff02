/**
 * The site's only way into the archive: the validator core, run once per build.
 *
 * It validates the whole archive before any record is published. If any record is invalid it throws, with the
 * command line's own report (`npm run validate`) as the message, so `astro build` stops and shows every problem of
 * every file. Warnings are printed in the same words and do not stop the build.
 *
 * Why not an Astro content collection: Astro's content store serialises every entry (devalue) and bundles the
 * whole store into the build as one JavaScript module, about 13 KB per record. At 5,000 records that is 65 MB of
 * code to bundle and parse; at 100,000 it passes V8's string limit. The records are already read, parsed and
 * checked by the core, file by file, so the site keeps what its pages need of each record (SiteRecord) in memory.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { archiveDateOf } from '../../core/archive/paths.ts';
import { ArchiveRootError } from '../../core/archive/load-archive.ts';
import { validateArchive, type ArchiveReport } from '../../core/archive/validate-archive.ts';
import { recordsRoot } from '../../core/config.ts';
import { sha256Hex } from '../../core/crypto/sha256.ts';
import { noCacheFromEnv } from '../../core/publish/build-cache.ts';
import type { PublishRecord } from '../../core/publish/records.ts';
import { deriveArchiveViews, type ArchiveViews } from '../../core/publish/archive-views.ts';
import { formatPretty } from '../../core/report/format-pretty.ts';
import { usePrecompiledValidatorsWhenNeeded } from '../../core/schema/precompiled.ts';
import { stringSharer, type StringSharer } from '../../core/json/shared-strings.ts';
import type { JsonObject } from '../../core/rules/rule.ts';
import { recordExcerpt } from '../model/archive-model.ts';
import { freerHeapGrowthForCachedRecords } from './large-archive.ts';
import { readSiteLog, type SiteLog } from './6-transparency-log.ts';
import { openProjectSiteRecordCache, type KeptSiteRecord, type SiteRecordCache } from './cache/site-record-cache.ts';
import { openProjectValidationCache, type ValidationCacheFile } from './cache/validation-cache.ts';
import { consoleLogger, type ArchiveLogger } from './console-logger.ts';

/**
 * One valid record as the site keeps it for the whole build: the publishers' record plus its file, without what only
 * its own page shows. Not its bytes: once hashed they are read again only where the file is published, which checks
 * them against `sha256` (src/site/build/4-raw-records.ts); kept, they would hold about 680 MB at 100,000 records. Not
 * its echo text and the other long fields only its page shows (PAGE_ONLY_FIELDS): the record page parses the
 * published bytes again on its worker thread, and the lists need only the excerpt. Kept, they were more than half of
 * every parsed record (the echo alone 5 of 9 KB in the synthetic archive, 5.2 KB on average in the real sample).
 */
export interface SiteRecord extends PublishRecord {
  /** Absolute path of the record file (published unchanged at /records/<id>.json). */
  file: string;
  /** The file validation read (`<device>:<inode>`): the one its hash is of (src/site/build/4-raw-records.ts). */
  identity?: string;
  /** The list excerpt, worked out while the whole record was at hand (recordExcerpt). */
  excerpt: string;
}

/**
 * The fields only a record's own page shows, left out of the records the build keeps (see SiteRecord): the long
 * free text and evidence. Nothing else of the build reads them (the index, feeds, lists, facets, counts and relations
 * read other fields); tests/site/read-archive.test.ts checks that each publisher gives the same with and without them.
 */
export const PAGE_ONLY_FIELDS: readonly string[] = [
  'echo',
  'discovery_provenance',
  'boundary_acknowledgement',
  'uncertainties',
  'origin_limitations',
  'component_findings',
  'hashes_computed',
];

/** A problem with the archive that the contributor must fix: shown as its message and hint, without a stack trace. */
export class ArchiveBuildError extends Error {
  override name = 'ArchiveBuildError';
  /** Shown by Astro beneath the message. */
  readonly hint: string;
  constructor(message: string, hint = 'Run `npm run validate` to check the records without building the site.') {
    super(message);
    this.hint = hint;
    this.stack = '';
  }
}

/** Thrown when the archive has invalid records; the message is the full report, as `npm run validate` prints it. */
export class InvalidArchiveError extends ArchiveBuildError {
  override name = 'InvalidArchiveError';
  readonly report: ArchiveReport;
  constructor(report: ArchiveReport) {
    super(invalidArchiveMessage(report));
    this.report = report;
  }
}

/** The build failure text: one line saying what to do, then exactly what `npm run validate` prints. */
export function invalidArchiveMessage(report: ArchiveReport): string {
  const n = report.summary.invalid;
  return (
    `The archive has ${n} invalid record${n === 1 ? '' : 's'}; fix ${n === 1 ? 'it' : 'them'} and build again:\n\n` +
    formatPretty(report, { color: false })
  );
}

export interface ReadSiteArchiveOptions {
  /**
   * The project's root: with it, verdicts on unchanged files are reused from the build's validation cache and this
   * build's verdicts kept there (src/site/build/cache/validation-cache.ts), unless ECHO_ARCHIVE_NO_CACHE is set.
   */
  repo?: string;
  /**
   * Whether the build's pages are expected from the page cache too (its code and configuration are the last build's),
   * for a large archive's heap limit (freerHeapGrowthForCachedRecords: lifted to the build's end, or while reading).
   */
  pagesFromCache?: boolean;
}

/**
 * Validates the archive at `root` (default: $RECORDS_DIR, else records/, from the working directory) and returns
 * its records in archive-path order, or throws an ArchiveBuildError.
 */
export async function readSiteArchive(
  root = resolve(recordsRoot()),
  logger: ArchiveLogger = consoleLogger('echo-archive'),
  { repo, pagesFromCache = false }: ReadSiteArchiveOptions = {},
): Promise<SiteRecord[]> {
  const records: SiteRecord[] = [];
  const cache = repo !== undefined && !noCacheFromEnv() ? openProjectValidationCache(repo) : undefined;
  // What the site keeps of each record, from an earlier build: an unchanged record file is then neither decoded nor
  // parsed (its verdict comes from the validation cache, and the core parses a file only when asked for its record).
  const kept = repo !== undefined && cache ? openProjectSiteRecordCache(repo) : undefined;
  // With the caches on, a build that judges a few files (an append) loads the schema's kept code for them instead of
  // compiling it (about 20 against 150 ms); one that judges none loads nothing.
  if (cache) usePrecompiledValidatorsWhenNeeded();
  if (cache?.ignored) logger.info(`The validation cache ${cache.file} was ignored: ${cache.ignored}; every file is judged`);
  if (kept?.ignored) logger.info(`The site record cache ${kept.file} was ignored: ${kept.ignored}; every record is parsed`);
  // Records from the cache: a build that makes little garbage but the records it keeps, whose growth a large archive's
  // heap limit would have V8 mark again at every fifth. The limit's module decides how long it stays lifted
  // (src/site/build/large-archive.ts); this function tells it when the records are read, or refused.
  const liftedHeapLimit = kept && kept.loaded > 0 ? freerHeapGrowthForCachedRecords(pagesFromCache) : undefined;
  let report: ArchiveReport;
  try {
    // File by file: each file's bytes and parsed record are let go once it is judged and its site record taken, so
    // that memory does not grow with the text of the whole archive.
    const share = stringSharer();
    // Each record file's absolute path, joined as strings: path.join's normalising, for 100,000 paths of the archive's
    // own listing (relative, with forward slashes), was 50 MB of garbage.
    const folder = `${resolve(root)}/`;
    report = await validateArchive(root, {
      cache,
      onFile: ({ path, id, file, sha256 }) => {
        // Only record files: README.md (allowed by the core) and anything else that is not a JSON object is skipped.
        if (!path.endsWith('.json') || !file.bytes) return;
        const hash = sha256 ?? sha256Hex(file.bytes);
        const site = kept?.get(path, hash) ?? keptSiteRecord(file.record, path, hash, kept);
        if (site) records.push(siteRecord(folder + path, path, id, site, hash, file.identity, share));
      },
    });
  } catch (err) {
    liftedHeapLimit?.refused();
    if (!(err instanceof ArchiveRootError)) throw err;
    // The core says which: a missing root, an interrupted intake accept, or a root that cannot be read.
    const missing = !statSync(root, { throwIfNoEntry: false })?.isDirectory();
    throw new ArchiveBuildError(
      missing ? `The archive root ${root} is not a directory.` : `${err.message[0]!.toUpperCase()}${err.message.slice(1)}.`,
      missing
        ? 'Set RECORDS_DIR to the records folder (relative paths are read from the project root), or create records/.'
        : 'Fix what the message names, then build again.',
    );
  }
  // Kept even when the archive is invalid: the verdicts are right, and the next build judges only what was fixed.
  if (cache) saveValidationCache(cache, report, logger);
  if (kept) saveSiteRecordCache(kept, logger);
  const { summary } = report;
  if (summary.invalid > 0) {
    liftedHeapLimit?.refused();
    throw new InvalidArchiveError(report);
  }
  liftedHeapLimit?.recordsRead();
  if (summary.warnings > 0) {
    logger.warn(`The archive is valid, with ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}:\n\n` + formatPretty(report, { color: false }));
  }

  logger.info(`Validated ${summary.files} file${summary.files === 1 ? '' : 's'} in ${report.root}: ${records.length} record${records.length === 1 ? '' : 's'}, all valid`);
  // The transparency log: each record's leaf index and versions; the log itself is written when the build is done.
  const log = readSiteLog(report.root, records, logger);
  if (log) siteLogs.set(records, log);
  return records;
}

/** Writes this build's verdicts and says how many files were judged; a cache that cannot be written does not stop the build. */
function saveValidationCache(cache: ValidationCacheFile, report: ArchiveReport, logger: ArchiveLogger): void {
  const reused = report.fromCache ?? 0;
  const judged = report.summary.files - reused;
  logger.info(`Validation cache: ${judged} file${judged === 1 ? '' : 's'} judged, ${reused} unchanged (verdict${reused === 1 ? '' : 's'} from the cache)`);
  try {
    cache.save();
  } catch (err) {
    logger.warn(`The validation cache ${cache.file} could not be written: ${(err as Error).message}`);
  }
}

/** What the site keeps of a parsed record (none for a file that is not a JSON object), kept in `cache` too. */
function keptSiteRecord(full: JsonObject | undefined, path: string, sha256: string, cache: SiteRecordCache | undefined): KeptSiteRecord | undefined {
  if (!full) return undefined;
  const record: JsonObject = {};
  for (const key of Object.keys(full)) if (!PAGE_ONLY_FIELDS.includes(key)) record[key] = full[key];
  const site = { record, excerpt: recordExcerpt(full) };
  cache?.put(path, sha256, site);
  return site;
}

/** A validated record as the build keeps it: without its page-only fields, its vocabulary shared with the others. */
function siteRecord(file: string, path: string, id: string, { record, excerpt }: KeptSiteRecord, sha256: string, identity: string | undefined, share: StringSharer): SiteRecord {
  return {
    id,
    path,
    archiveDate: archiveDateOf(id) ?? null,
    sha256,
    // In place: the whole record is let go after this.
    record: share(record),
    file,
    ...(identity === undefined ? {} : { identity }),
    excerpt,
  };
}

/** Writes what the site kept of this build's records; a cache that cannot be written does not stop the build. */
function saveSiteRecordCache(cache: SiteRecordCache, logger: ArchiveLogger): void {
  try {
    cache.save();
  } catch (err) {
    logger.warn(`The site record cache ${cache.file} could not be written: ${(err as Error).message}`);
  }
}

// The log read with each records array, for the build's later steps (the log's files, the pages that show leaves).
const siteLogs = new WeakMap<readonly SiteRecord[], SiteLog>();

/** The transparency log read with these records (readSiteArchive), if the archive has one. */
export function siteLogOf(records: readonly SiteRecord[]): SiteLog | undefined {
  return siteLogs.get(records);
}

// The guardian registry and classification views (src/core/publish/archive-views.ts), derived once per build: the
// record pages (src/site/build/3-record-pages.ts) and the archive's pages (the index, counts, guardian pages) read the
// same derivation of the same records.
const archiveViewsMemo = new WeakMap<readonly PublishRecord[], ArchiveViews>();

/** The views of these records, derived on the first call for this very array and reused after. */
export function archiveViewsOf(records: readonly PublishRecord[]): ArchiveViews {
  let views = archiveViewsMemo.get(records);
  if (views === undefined) archiveViewsMemo.set(records, (views = deriveArchiveViews(records)));
  return views;
}
