/**
 * Writing an accepted submission into the archive: the next free conventional name, the core's validation of every
 * file as it will be written (an invalid file is never written), and one commit of all its files (journal.ts).
 */
import { sha256Hex } from '../core/crypto/sha256.ts';
import { loadArchive, type LoadedArchive } from '../core/archive/load-archive.ts';
import { nextConventionalPaths } from '../core/archive/paths.ts';
import { validateAsArchiveFiles } from '../core/archive/validate-candidate.ts';
import { submissionSha256Of } from '../core/publish/public-index.ts';
import type { Diagnostic } from '../core/diagnostics/diagnostic.ts';
import type { JsonObject } from '../core/record-chain/index.ts';
import { commitWrites, type CommitHooks, type PlannedWrite } from './journal.ts';

/** The archive path of the next record archived on `date`: `<year>/echo-<date>-<max sequence + 1>.json`. */
export function nextRecordPath(archive: LoadedArchive, date: Date): string {
  return nextConventionalPaths(archive.files.map((f) => f.path), date)[0]!;
}

/** The archive path of a record that already carries this submission_sha256, if any. */
export function findArchivedSubmission(archive: LoadedArchive, submissionSha256: string): string | undefined {
  return archive.files.find((f) => f.record && submissionSha256Of(f.record) === submissionSha256)?.path;
}

/** The record file's text: 2-space JSON and a final newline, like the archive's records. */
export function recordFileText(record: JsonObject): string {
  return JSON.stringify(record, null, 2) + '\n';
}

export { validateAsArchiveFile, validateAsArchiveFiles } from '../core/archive/validate-candidate.ts';

/** What an accept writes: the new record, and changes to records already archived (a superseded target). */
export interface AcceptPlan {
  record: JsonObject;
  /** Archived records to replace, each with its new content (the path must be a file of the archive). */
  updates?: { path: string; record: JsonObject }[];
}

export type WriteOutcome =
  | { written: true; path: string; updated: string[] }
  | { written: false; alreadyArchived: string }
  | { written: false; invalid: Map<string, Diagnostic[]>; path: string };

/**
 * Validates and writes the record that `compose` makes for the next free name of the archive at `root`, together
 * with the updates it asks for: every file valid in the archive as it will be, and all files or none (journal.ts).
 * `compose` sees the archive as loaded and the new record's path, and may throw to refuse.
 */
export async function writeArchiveRecord(
  root: string,
  submissionSha256: string,
  date: Date,
  compose: (archive: LoadedArchive, path: string) => AcceptPlan,
  hooks?: CommitHooks,
): Promise<WriteOutcome> {
  const archive = await loadArchive(root);
  const existing = findArchivedSubmission(archive, submissionSha256);
  if (existing) return { written: false, alreadyArchived: existing };
  const path = nextRecordPath(archive, date);
  const plan = compose(archive, path);
  const texts = new Map([[path, recordFileText(plan.record)]]);
  for (const u of plan.updates ?? []) texts.set(u.path, recordFileText(u.record));
  const verdict = validateAsArchiveFiles(archive, texts);
  if (!verdict.valid) return { written: false, invalid: verdict.diagnostics, path };
  const writes: PlannedWrite[] = [...texts].map(([p, text]) => {
    const bytes = p === path ? undefined : archive.files.find((f) => f.path === p)?.bytes;
    return { path: p, text, before: bytes ? sha256Hex(bytes) : null };
  });
  commitWrites(root, writes, hooks);
  return { written: true, path, updated: (plan.updates ?? []).map((u) => u.path) };
}
