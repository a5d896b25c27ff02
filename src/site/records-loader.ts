/**
 * The site's only way into the archive: an Astro content loader around the validator core.
 *
 * It validates the whole archive with the core before anything is rendered. If any record is invalid it throws,
 * with the command line's own report (`npm run validate`) as the message, so `astro build` stops and shows every
 * problem of every file. Warnings are logged in the same words and do not stop the build. When the archive is
 * valid, it stores one entry per record (id = record id) with the parsed record, its path, archive date, the
 * SHA-256 of its exact bytes, and its exact text as the entry body (the raw JSON is served from that).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { archiveDateOf } from '../core/archive/paths.ts';
import { validateArchive, type ArchiveReport } from '../core/archive/validate-archive.ts';
import { ArchiveRootError } from '../core/archive/load-archive.ts';
import { recordsRoot } from '../core/config.ts';
import { sha256Hex } from '../core/crypto/sha256.ts';
import { formatPretty } from '../core/report/format-pretty.ts';
import type { RecordEntryData } from './record-entry.ts';

export const RECORDS_LOADER_NAME = 'echo-records';

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

export interface RecordsLoaderOptions {
  /** Archive root; relative paths are resolved from the project root. Default: $RECORDS_DIR, else records/. */
  root?: string;
}

export function recordsLoader(options: RecordsLoaderOptions = {}): Loader {
  return {
    name: RECORDS_LOADER_NAME,
    async load(context: LoaderContext): Promise<void> {
      const root = resolve(fileURLToPath(context.config.root), options.root ?? recordsRoot());
      await loadRecords(root, context);

      // `astro dev` only: re-validate when a record changes; a broken record is reported, the last good set stays.
      const { watcher, logger } = context;
      if (watcher) {
        watcher.add(root);
        const inRoot = (path: string) => path === root || path.startsWith(root + '/');
        watcher.on('all', (_event, path) => {
          if (!inRoot(resolve(path))) return;
          loadRecords(root, context).catch((err: unknown) => logger.error(err instanceof Error ? err.message : String(err)));
        });
      }
    },
  };
}

async function loadRecords(root: string, { store, logger, parseData }: LoaderContext): Promise<void> {
  let report;
  try {
    report = await validateArchive(root);
  } catch (err) {
    if (!(err instanceof ArchiveRootError)) throw err;
    throw new ArchiveBuildError(
      `The archive root ${root} is not a directory.`,
      'Set RECORDS_DIR to the records folder (relative paths are read from the project root), or create records/.',
    );
  }
  const { summary } = report;
  if (summary.invalid > 0) throw new InvalidArchiveError(report);
  if (summary.warnings > 0) {
    logger.warn(`The archive is valid, with ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}:\n\n` + formatPretty(report, { color: false }));
  }

  const entries: { id: string; data: RecordEntryData; body: string }[] = [];
  for (const { path, id, file } of report.files) {
    // Only record files: README.md (allowed by the core) and anything else that is not a JSON object is skipped.
    if (!path.endsWith('.json') || !file.record || !file.bytes) continue;
    const data: RecordEntryData = {
      path,
      archiveDate: archiveDateOf(id) ?? null,
      sha256: sha256Hex(file.bytes),
      record: file.record,
    };
    // A valid record is UTF-8 without a BOM, so its text re-encodes to exactly its bytes (checked when served).
    entries.push({ id, data: await parseData({ id, data: { ...data } }), body: file.bytes.toString('utf8') });
  }

  store.clear();
  for (const { id, data, body } of entries) store.set({ id, data: { ...data }, body, digest: data.sha256 });
  logger.info(`Validated ${summary.files} file${summary.files === 1 ? '' : 's'} in ${report.root}: ${entries.length} record${entries.length === 1 ? '' : 's'}, all valid`);
}
