/**
 * A draft judged as the record file it becomes: converted (draft.ts), for a new record completed with a derived
 * origin_classification when the draft has none (DECISIONS 22), then validated by the core as the archive file
 * `path` (the rest of the archive read for ids and links), every problem placed at the draft's lines.
 */
import type { LoadedArchive } from '../archive/load-archive.ts';
import { validateAsArchiveFile } from '../archive/validate-candidate.ts';
import { isError, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { canonicalRecordText } from '../record/canonical-layout.ts';
import { deriveOriginClassification } from '../record/origin-classification.ts';
import { readDraft, type ReadDraft } from './draft.ts';

export interface DraftVerdict {
  /** The record file's text (canonical layout), when the draft could be read. */
  text?: string;
  valid: boolean;
  /** Problems of reading and of validation, at the draft's lines. */
  diagnostics: Diagnostic[];
}

export interface DraftOptions {
  /**
   * A new record (DECISIONS 22): when the draft's front matter has no origin_classification, the record gets the one
   * derived from the draft's own fields (src/core/record/origin-classification.ts). Off for the edit path
   * (`--from … --replace`), which keeps a record's fields as written.
   */
  deriveOrigin?: boolean;
}

/** Reads a draft once; `judge` then validates it as any archive path (e.g. each number tried by createNextRecord). */
export function draftJudge(
  draftText: string,
  { deriveOrigin = false }: DraftOptions = {},
): { read: ReadDraft; derivedOrigin: boolean; judge: (archive: LoadedArchive, path: string) => DraftVerdict } {
  const read = readDraft(draftText);
  let record = read.record;
  const derivedOrigin = deriveOrigin && record !== undefined && !Object.hasOwn(record, 'origin_classification');
  if (derivedOrigin) record = { ...record, origin_classification: deriveOriginClassification(record!) };
  const text = record && !read.findings.some(isError) ? canonicalRecordText(record) : undefined;
  return {
    read,
    derivedOrigin,
    judge(archive, path) {
      if (text === undefined) return { valid: false, diagnostics: read.findings };
      const verdict = validateAsArchiveFile(archive, path, text);
      const diagnostics = verdict.diagnostics.map((d) => read.locate({ ...d, line: undefined, column: undefined }));
      return { text, valid: verdict.valid, diagnostics: [...read.findings, ...diagnostics] };
    },
  };
}
