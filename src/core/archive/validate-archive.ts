/**
 * The validation pipeline: list the archive, run the rules over the whole listing (duplicate ids), then file by
 * file the rules of each file alone, the schema and the record rules (a linked report is looked up), place every
 * finding in its file, and sum up. All problems of all files in one pass. The files are read up front and kept
 * (the CLI), or read in turn and let go (`onFile`, the site build): the same findings either way.
 */
import { isError, type Diagnostic, type Finding } from '../diagnostics/diagnostic.ts';
import { locateFindings } from '../diagnostics/locate.ts';
import { archiveRules } from '../rules/index.ts';
import { checkRecord } from './check-record.ts';
import { isArchiveReadme, recordIdOf } from './paths.ts';
import { removedRecordFindings, type RemovedRecord } from '../rules/change/removed-record.ts';
import { listArchive, loadArchive, readArchiveFile, textOf, type LoadedArchive, type LoadedFile } from './load-archive.ts';
import type { ArchiveLookup, ArchiveRule } from '../rules/rule.ts';

export interface FileReport {
  /** Path from the archive root, forward slashes. */
  path: string;
  id: string;
  valid: boolean;
  diagnostics: Diagnostic[];
  /** The loaded file (bytes, parsed record) for callers that go on to use it; with `onFile`, the listing's entry only. */
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
  /**
   * Validate file by file: each file is read, judged and handed here with its bytes and parsed record, which are
   * then let go (its report keeps the diagnostics and the listing's entry: path, id, size, `unread`). Memory then
   * stays flat however large the archive (the site build). Without it every report keeps its loaded file.
   */
  onFile?: (report: FileReport) => void;
}

export async function validateArchive(root: string, options: ValidateOptions = {}): Promise<ArchiveReport> {
  // Streaming lists the archive and reads each file in turn; otherwise the files are read up front and kept.
  const archive = options.onFile ? listArchive(root) : await loadArchive(root, { only: options.only });
  return validateLoadedArchive(archive, options);
}

/** Linked reports read again while streaming (a report is usually linked by several echoes in a row). */
const LOOKUP_CACHE = 64;

export function validateLoadedArchive(archive: LoadedArchive, { only, removed = [], onFile }: ValidateOptions = {}): ArchiveReport {
  // Rules over the whole listing (duplicate ids) run before any file is read: they need paths, not contents.
  const wideFindings = new Map<ArchiveRule, Map<string, Finding[]>>();
  for (const rule of archiveRules) if (!rule.perFile) wideFindings.set(rule, rule.check(archive.files));

  // While streaming, a file read for a lookup (a linked report) is not kept in the listing: a few stay in a cache.
  let current: LoadedFile | undefined;
  const lookup: ArchiveLookup = onFile ? streamingLookup(archive, () => current) : archive;

  const files: FileReport[] = [];
  for (const entry of archive.files) {
    if (only && !only.has(entry.path)) continue;
    if (isArchiveReadme(entry.path)) continue; // allowed, and not a record: nothing to report
    const file = entry.unread ? readArchiveFile(archive.root, entry.path) : entry;
    current = file;
    const findings: Finding[] = [];
    // Findings in the order of the rules: each file's own archive rules, or the whole listing's.
    for (const rule of archiveRules) {
      const found = (rule.perFile ? rule.check([file]) : wideFindings.get(rule)!).get(file.path);
      if (found) findings.push(...found);
    }
    if (file.readFindings) findings.push(...file.readFindings);
    if (file.record) findings.push(...checkRecord(file.record, file, lookup));
    const diagnostics = findings.length === 0 ? [] : locateFindings(findings, textOf(file));
    const report: FileReport = { path: file.path, id: file.id, valid: !diagnostics.some(isError), diagnostics, file };
    if (onFile) {
      onFile(report);
      // Let the file go: the listing entry (path, id, size) stands for it in the report.
      entry.size = file.size;
      report.file = entry;
    }
    files.push(report);
  }
  current = undefined;
  for (const r of removed) {
    const diagnostics = locateFindings(removedRecordFindings(r), undefined);
    const file: LoadedFile = { path: r.path, id: recordIdOf(r.path), size: 0 };
    files.push({ path: r.path, id: file.id, valid: !diagnostics.some(isError), diagnostics, file, removed: r });
  }
  return { root: archive.root, files, summary: summarize(files), archive };
}

/**
 * Lookups while streaming: the file being judged, a file the listing holds loaded, or one read again (a linked
 * report), kept in a small cache rather than in the listing so that what was read does not pile up.
 */
function streamingLookup(archive: LoadedArchive, current: () => LoadedFile | undefined): ArchiveLookup {
  const byPath = new Map(archive.files.map((f) => [f.path, f]));
  const cache = new Map<string, LoadedFile>();
  return {
    recordAt(path) {
      const now = current();
      if (now?.path === path) return now;
      const entry = byPath.get(path);
      if (!entry || !path.endsWith('.json')) return undefined;
      if (!entry.unread) return entry;
      let file = cache.get(path);
      if (file) cache.delete(path);
      else file = readArchiveFile(archive.root, path);
      cache.set(path, file); // most recently used last
      if (cache.size > LOOKUP_CACHE) cache.delete(cache.keys().next().value!);
      return file;
    },
  };
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
