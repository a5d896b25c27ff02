/**
 * The validation pipeline: load the archive, run the archive rules over its files and the schema and record
 * rules over each record, place every finding in its file, and sum up. All problems of all files in one pass.
 */
import { isError, type Diagnostic, type Finding } from '../diagnostics/diagnostic.ts';
import { locateFindings } from '../diagnostics/locate.ts';
import { archiveRules } from '../rules/index.ts';
import { checkRecord } from './check-record.ts';
import { isArchiveReadme, recordIdOf } from './paths.ts';
import { removedRecordFindings, type RemovedRecord } from '../rules/change/removed-record.ts';
import { loadArchive, textOf, type LoadedArchive, type LoadedFile } from './load-archive.ts';

export interface FileReport {
  /** Path from the archive root, forward slashes. */
  path: string;
  id: string;
  valid: boolean;
  diagnostics: Diagnostic[];
  /** The loaded file (bytes, parsed record) for callers that go on to use it, like the site. */
  file: LoadedFile;
  /** Set when the change being validated deleted or renamed this record (the file is then not in the archive). */
  removed?: RemovedRecord;
}

export interface ValidationSummary {
  files: number;
  valid: number;
  invalid: number;
  errors: number;
  warnings: number;
}

export interface ArchiveReport {
  root: string;
  files: FileReport[];
  summary: ValidationSummary;
  archive: LoadedArchive;
}

export interface ValidateOptions {
  /**
   * Report only these paths (relative to the root). The rest of the archive is still listed, for ids, and a record
   * another one links to is read when a rule looks it up; only these files are read up front.
   */
  only?: ReadonlySet<string>;
  /** Records a change deleted or renamed (`validate --changed`): each is reported as a file of its own. */
  removed?: readonly RemovedRecord[];
}

export async function validateArchive(root: string, options: ValidateOptions = {}): Promise<ArchiveReport> {
  return validateLoadedArchive(await loadArchive(root, { only: options.only }), options);
}

export function validateLoadedArchive(archive: LoadedArchive, { only, removed = [] }: ValidateOptions = {}): ArchiveReport {
  const archiveFindings = new Map<string, Finding[]>();
  // Rules that judge each file alone need only the reported files (a one-file check of a large archive).
  const reported = only ? archive.files.filter((f) => only.has(f.path)) : archive.files;
  for (const rule of archiveRules) {
    for (const [path, found] of rule.check(rule.perFile ? reported : archive.files)) {
      const list = archiveFindings.get(path);
      if (list) list.push(...found);
      else archiveFindings.set(path, [...found]);
    }
  }

  const files: FileReport[] = [];
  for (const file of archive.files) {
    if (only && !only.has(file.path)) continue;
    if (isArchiveReadme(file.path)) continue; // allowed, and not a record: nothing to report
    const findings = [...(archiveFindings.get(file.path) ?? []), ...(file.readFindings ?? [])];
    if (file.record) findings.push(...checkRecord(file.record, file, archive));
    const diagnostics = findings.length === 0 ? [] : locateFindings(findings, textOf(file));
    files.push({ path: file.path, id: file.id, valid: !diagnostics.some(isError), diagnostics, file });
  }
  for (const r of removed) {
    const diagnostics = locateFindings(removedRecordFindings(r), undefined);
    const file: LoadedFile = { path: r.path, id: recordIdOf(r.path), size: 0 };
    files.push({ path: r.path, id: file.id, valid: !diagnostics.some(isError), diagnostics, file, removed: r });
  }
  return { root: archive.root, files, summary: summarize(files), archive };
}

export function summarize(files: readonly FileReport[]): ValidationSummary {
  let errors = 0;
  let warnings = 0;
  let valid = 0;
  for (const f of files) {
    if (f.valid) valid++;
    for (const d of f.diagnostics) {
      if (isError(d)) errors++;
      else warnings++;
    }
  }
  return { files: files.length, valid, invalid: files.length - valid, errors, warnings };
}
