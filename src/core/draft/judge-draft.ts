/**
 * A draft judged as the record file it becomes: converted (draft.ts), then validated by the core as the archive
 * file `path` (the rest of the archive read for ids and links), every problem placed at the draft's lines.
 */
import type { LoadedArchive } from '../archive/load-archive.ts';
import { validateAsArchiveFile } from '../archive/validate-candidate.ts';
import { isError, type Diagnostic } from '../diagnostics/diagnostic.ts';
import { canonicalRecordText } from '../record/canonical-layout.ts';
import { readDraft, type ReadDraft } from './draft.ts';

export interface DraftVerdict {
  /** The record file's text (canonical layout), when the draft could be read. */
  text?: string;
  valid: boolean;
  /** Problems of reading and of validation, at the draft's lines. */
  diagnostics: Diagnostic[];
}

/** Reads a draft once; `judge` then validates it as any archive path (e.g. each number tried by createNextRecord). */
export function draftJudge(draftText: string): { read: ReadDraft; judge: (archive: LoadedArchive, path: string) => DraftVerdict } {
  const read = readDraft(draftText);
  const text = read.record && !read.findings.some(isError) ? canonicalRecordText(read.record) : undefined;
  return {
    read,
    judge(archive, path) {
      if (text === undefined) return { valid: false, diagnostics: read.findings };
      const verdict = validateAsArchiveFile(archive, path, text);
      const diagnostics = verdict.diagnostics.map((d) => read.locate({ ...d, line: undefined, column: undefined }));
      return { text, valid: verdict.valid, diagnostics: [...read.findings, ...diagnostics] };
    },
  };
}
