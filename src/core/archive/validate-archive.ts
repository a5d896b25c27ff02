/**
 * The validation pipeline: list the archive, run the rules over the whole listing (duplicate ids), then file by
 * file the rules of each file alone, the schema and the record rules (a linked report is looked up), place every
 * finding in its file, and sum up. All problems of all files in one pass. The files are read up front and kept
 * (the CLI), or read in turn and let go (`onFile`, the site build): the same findings either way. With a `cache`
 * (the site build's, verdict-cache.ts), a file judged before with the same bytes and the same looked-up files is not
 * judged again: the same findings again.
 */
import { byPosition, isError, type Diagnostic, type Finding } from '../diagnostics/diagnostic.ts';
import { locateFindings } from '../diagnostics/locate.ts';
import { archiveRules } from '../rules/index.ts';
import { checkRecord } from './check-record.ts';
import { isArchiveReadme, recordIdOf } from './paths.ts';
import { removedRecordFindings, type RemovedRecord } from '../rules/change/removed-record.ts';
import { listArchive, loadArchive, readArchiveFile, textOf, type LoadedArchive, type LoadedFile } from './load-archive.ts';
import { openArchiveReader, type ReaderOptions } from './read-ahead.ts';
import type { ArchiveLookup, ArchiveRule } from '../rules/rule.ts';
import { LookedUpFiles, type LookedUpState, type ValidationCache } from './verdict-cache.ts';

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
  /** The SHA-256 of the file's bytes, when the validation worked it out (with a `cache`, or read ahead), so that callers need not again. */
  sha256?: string;
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
  /** With a `cache`: how many files' verdicts were reused from it rather than judged. */
  fromCache?: number;
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
   * stays flat however large the archive (the site build). Without it every report keeps its loaded file. The bytes
   * are lent for the call: a large archive's are read into memory that is reused a few files later (read-ahead.ts,
   * `transient`), so whatever is kept of them must be copied (the record parsed from them is the caller's).
   */
  onFile?: (report: FileReport) => void;
  /**
   * Earlier verdicts (verdict-cache.ts): a file whose path and bytes match a kept verdict, and whose looked-up files
   * are as they were, is not judged again; the rules over the whole listing still run. Each verdict, made or reused, is put in.
   */
  cache?: ValidationCache;
  /**
   * When a second thread reads the files ahead of the validation (read-ahead.ts): by default from READ_AHEAD_FROM
   * files to read on; the findings are the same either way.
   */
  readAhead?: ReaderOptions;
}

export async function validateArchive(root: string, options: ValidateOptions = {}): Promise<ArchiveReport> {
  // Streaming lists the archive and reads each file in turn; otherwise the files are read up front and kept.
  const archive = options.onFile ? listArchive(root) : await loadArchive(root, { only: options.only, readAhead: options.readAhead });
  return validateLoadedArchive(archive, options);
}

/** Linked reports read again while streaming (a report is usually linked by several echoes in a row). */
const LOOKUP_CACHE = 64;

export function validateLoadedArchive(archive: LoadedArchive, { only, removed = [], onFile, cache, readAhead }: ValidateOptions = {}): ArchiveReport {
  // Rules over the whole listing (duplicate ids) run before any file is read: they need paths, not contents.
  const wideFindings = new Map<ArchiveRule, Map<string, Finding[]>>();
  for (const rule of archiveRules) if (!rule.perFile) wideFindings.set(rule, rule.check(archive.files));

  // While streaming, a file read for a lookup (a linked report) is not kept in the listing: a few stay in a cache.
  let current: LoadedFile | undefined;
  const lookup: ArchiveLookup = onFile ? streamingLookup(archive, () => current) : archive;
  const lookups = cache ? new LookedUpFiles(lookup) : undefined;
  let fromCache = 0;

  const files: FileReport[] = [];
  const toRead = archive.files.filter((entry) => entry.unread && isReportedFile(entry, only) && entry.path.endsWith('.json'));
  // Streaming keeps nothing of a file once it is judged and handed on (report.file becomes its listing entry below).
  const reader = openArchiveReader(archive.root, toRead.map((entry) => entry.path), { ...readAhead, transient: onFile !== undefined });
  try {
    for (const entry of archive.files) {
      if (!isReportedFile(entry, only)) continue;
      const file = entry.unread ? reader.read(entry.path) : entry;
      current = file;
      let own: Diagnostic[] | undefined;
      const sha256 = lookups ? lookups.hashOf(file) : file.sha256;
      if (cache && lookups && sha256 !== undefined) {
        const kept = cache.get(file.path, sha256);
        if (kept && lookups.unchanged(kept.lookedUp)) {
          own = kept.diagnostics;
          fromCache++;
          cache.put(file.path, sha256, kept);
        } else {
          const seen: { files: Map<string, LookedUpState> | undefined } = { files: new Map() };
          own = judgeFile(file, lookups.recording(seen));
          if (seen.files) cache.put(file.path, sha256, { diagnostics: own, lookedUp: [...seen.files] });
        }
      }
      own ??= judgeFile(file, lookup);
      // The whole listing's findings for this file, placed and merged in reading order (locateFindings' order).
      const wide: Finding[] = [];
      for (const findings of wideFindings.values()) wide.push(...(findings.get(file.path) ?? []));
      const diagnostics = wide.length === 0 ? own : [...own, ...locateFindings(wide, textOf(file))].sort(byPosition);
      const report: FileReport = { path: file.path, id: file.id, valid: !diagnostics.some(isError), diagnostics, file };
      if (sha256 !== undefined) report.sha256 = sha256;
      if (onFile) {
        onFile(report);
        // Let the file go: the listing entry (path, id, size) stands for it in the report.
        entry.size = file.size;
        report.file = entry;
      }
      files.push(report);
    }
  } finally {
    reader.close();
  }
  current = undefined;
  for (const r of removed) {
    const diagnostics = locateFindings(removedRecordFindings(r), undefined);
    const file: LoadedFile = { path: r.path, id: recordIdOf(r.path), size: 0 };
    files.push({ path: r.path, id: file.id, valid: !diagnostics.some(isError), diagnostics, file, removed: r });
  }
  const report: ArchiveReport = { root: archive.root, files, summary: summarize(files), archive };
  if (cache) report.fromCache = fromCache;
  return report;
}

/** Whether the validation reports this file: one of `only`, if given, and not the archive's README (allowed, not a record). */
function isReportedFile(entry: LoadedFile, only: ReadonlySet<string> | undefined): boolean {
  return (!only || only.has(entry.path)) && !isArchiveReadme(entry.path);
}

/**
 * A file's own findings, placed in its text: the rules of each file alone, its strict reading, the schema and the
 * record rules (which may look up other files through `lookup`). Not the rules over the whole listing.
 */
function judgeFile(file: LoadedFile, lookup: ArchiveLookup): Diagnostic[] {
  const findings: Finding[] = [];
  for (const rule of archiveRules) {
    if (!rule.perFile) continue;
    const found = rule.check([file]).get(file.path);
    if (found) findings.push(...found);
  }
  if (file.readFindings) findings.push(...file.readFindings);
  if (file.record) findings.push(...checkRecord(file.record, file, lookup));
  return findings.length === 0 ? [] : locateFindings(findings, textOf(file));
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
