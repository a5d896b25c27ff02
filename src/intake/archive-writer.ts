/**
 * Writing an accepted submission into the archive: the next free conventional name, the core's validation of every
 * file as it will be written (an invalid file is never written), and one commit of all its files (journal.ts).
 */
import { sha256Hex } from '../core/crypto/sha256.ts';
import { loadArchive, comparePaths, type LoadedArchive, type LoadedFile } from '../core/archive/load-archive.ts';
import { validateLoadedArchive } from '../core/archive/validate-archive.ts';
import { nextConventionalPaths, recordIdOf } from '../core/archive/paths.ts';
import { parseStrictJson } from '../core/json/strict-parse.ts';
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

/**
 * The core's verdict on `files` (path → text) as files of `archive`, new or replacing the file at that path (the
 * rest of the archive is read for ids and links). Diagnostics per path, for the given paths only.
 */
export function validateAsArchiveFiles(archive: LoadedArchive, files: ReadonlyMap<string, string>): { valid: boolean; diagnostics: Map<string, Diagnostic[]> } {
  const candidates = new Map<string, LoadedFile>();
  for (const [path, text] of files) {
    const bytes = Buffer.from(text, 'utf8');
    const parsed = parseStrictJson(bytes);
    const file: LoadedFile = { path, id: recordIdOf(path), size: bytes.length, bytes, readFindings: parsed.findings };
    if (parsed.isObject) file.record = parsed.value as JsonObject;
    candidates.set(path, file);
  }
  const merged = [...archive.files.filter((f) => !candidates.has(f.path)), ...candidates.values()].sort((a, b) => comparePaths(a.path, b.path));
  const candidate: LoadedArchive = { root: archive.root, files: merged, recordAt: (p) => candidates.get(p) ?? archive.recordAt(p) };
  const report = validateLoadedArchive(candidate, { only: new Set(files.keys()) });
  const diagnostics = new Map<string, Diagnostic[]>();
  let valid = true;
  for (const path of files.keys()) {
    const fileReport = report.files.find((f) => f.path === path);
    valid &&= fileReport?.valid ?? false;
    if (fileReport && fileReport.diagnostics.length > 0) diagnostics.set(path, fileReport.diagnostics);
  }
  return { valid, diagnostics };
}

/** The core's verdict on `text` as the file `path` of `archive`. */
export function validateAsArchiveFile(archive: LoadedArchive, path: string, text: string): { valid: boolean; diagnostics: Diagnostic[] } {
  const verdict = validateAsArchiveFiles(archive, new Map([[path, text]]));
  return { valid: verdict.valid, diagnostics: verdict.diagnostics.get(path) ?? [] };
}

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
