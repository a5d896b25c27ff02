/**
 * Judging files before they are written: the core's verdict on texts as files of an archive, new or replacing the
 * file at that path, with the rest of the archive read for ids and links (the intake's accept and `npm run new`).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { parseStrictJson } from '../json/strict-parse.ts';
import type { JsonObject } from '../rules/rule.ts';
import { comparePaths, type LoadedArchive, type LoadedFile } from './load-archive.ts';
import { recordIdOf } from './paths.ts';
import { validateLoadedArchive } from './validate-archive.ts';

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
