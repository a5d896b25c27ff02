/**
 * Judging a file before it is written: the core's verdict on `text` as the file `path` of an archive, with the rest
 * of the archive read for ids and links (the intake's accept and `npm run new` both ask this).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.ts';
import { parseStrictJson } from '../json/strict-parse.ts';
import type { JsonObject } from '../rules/rule.ts';
import { comparePaths, type LoadedArchive, type LoadedFile } from './load-archive.ts';
import { recordIdOf } from './paths.ts';
import { validateLoadedArchive } from './validate-archive.ts';

/** The core's verdict on `text` as the file `path` of `archive` (the rest of the archive is read for ids and links). */
export function validateAsArchiveFile(archive: LoadedArchive, path: string, text: string): { valid: boolean; diagnostics: Diagnostic[] } {
  const bytes = Buffer.from(text, 'utf8');
  const parsed = parseStrictJson(bytes);
  const file: LoadedFile = { path, id: recordIdOf(path), size: bytes.length, bytes, readFindings: parsed.findings };
  if (parsed.isObject) file.record = parsed.value as JsonObject;
  const files = [...archive.files.filter((f) => f.path !== path), file].sort((a, b) => comparePaths(a.path, b.path));
  const candidate: LoadedArchive = { root: archive.root, files, recordAt: (p) => (p === path ? file : archive.recordAt(p)) };
  const report = validateLoadedArchive(candidate, { only: new Set([path]) });
  const fileReport = report.files.find((f) => f.path === path);
  return { valid: fileReport?.valid ?? false, diagnostics: fileReport?.diagnostics ?? [] };
}

