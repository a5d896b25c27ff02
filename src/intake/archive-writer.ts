/**
 * Writing an accepted submission into the archive: the next free conventional name, the core's validation of the
 * file as it will be written (an invalid file is never written), and a write that never replaces an existing file.
 */
import { linkSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadArchive, type LoadedArchive } from '../core/archive/load-archive.ts';
import { validateAsArchiveFile } from '../core/archive/validate-candidate.ts';
import { highestSequence, recordPathFor } from '../core/archive/numbering.ts';
import { submissionSha256Of } from '../core/publish/public-index.ts';
import type { Diagnostic } from '../core/diagnostics/diagnostic.ts';
import type { JsonObject } from '../core/record-chain/index.ts';

/** The archive path of the next record archived on `date`: `<year>/echo-<date>-<max sequence + 1>.json`. */
export function nextRecordPath(archive: LoadedArchive, date: Date): string {
  return recordPathFor(date.toISOString().slice(0, 10), highestSequence(archive.files.map((f) => f.path)) + 1);
}

/** The archive path of a record that already carries this submission_sha256, if any. */
export function findArchivedSubmission(archive: LoadedArchive, submissionSha256: string): string | undefined {
  return archive.files.find((f) => f.record && submissionSha256Of(f.record) === submissionSha256)?.path;
}

/** The record file's text: 2-space JSON and a final newline, like the archive's records. */
export function recordFileText(record: JsonObject): string {
  return JSON.stringify(record, null, 2) + '\n';
}

export { validateAsArchiveFile } from '../core/archive/validate-candidate.ts';

export type WriteOutcome =
  | { written: true; path: string }
  | { written: false; alreadyArchived: string }
  | { written: false; invalid: Diagnostic[]; path: string };

/** Validates and writes `record` as the next record of the archive at `root`. */
export async function writeArchiveRecord(root: string, record: JsonObject, submissionSha256: string, date: Date): Promise<WriteOutcome> {
  const archive = await loadArchive(root);
  const existing = findArchivedSubmission(archive, submissionSha256);
  if (existing) return { written: false, alreadyArchived: existing };
  const path = nextRecordPath(archive, date);
  const text = recordFileText(record);
  const verdict = validateAsArchiveFile(archive, path, text);
  if (!verdict.valid) return { written: false, invalid: verdict.diagnostics, path };
  const target = join(root, path);
  mkdirSync(dirname(target), { recursive: true });
  // Write a temporary file fully, then link it to the final name: the record appears whole or not at all, and an
  // existing file is never replaced (link fails when the name is taken).
  const temp = join(dirname(target), `.intake-${process.pid}-${Date.now()}.tmp`);
  writeFileSync(temp, text, { flag: 'wx', mode: 0o644 });
  try {
    linkSync(temp, target);
  } finally {
    unlinkSync(temp);
  }
  return { written: true, path };
}
