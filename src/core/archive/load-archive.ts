/**
 * Reads an archive root: every file under it (hidden files and folders excepted), in a stable order, with each
 * .json file parsed strictly (read-file.ts; a large archive's files read on two threads: read-ahead.ts). Reading is
 * separate from judging so that callers (the CLI, the site) share it.
 */
import { existsSync, statSync } from 'node:fs';
import type { Finding } from '../diagnostics/diagnostic.ts';
import type { ArchiveFile, ArchiveLookup, ArchiveRecord } from '../rules/rule.ts';
import { compareCodePoints, sortByCodePoints } from '../util/compare.ts';
import { listArchiveFiles } from './list-files.ts';
import { recordIdOf } from './paths.ts';
import { openArchiveReader, type ReaderOptions } from './read-ahead.ts';
import { readArchiveFile } from './read-file.ts';

export { archiveFileOf, readArchiveFile } from './read-file.ts';

export interface LoadedFile extends ArchiveFile, ArchiveRecord {
  /** Exact bytes of a .json file within the size limit (raw records are served and hashed as they are). */
  bytes?: Buffer;
  /** What strict reading found (syntax, BOM, duplicate keys …); absent for files that were not read. */
  readFindings?: Finding[];
  /**
   * The file the bytes were read from, as `<device>:<inode>`: so that a caller can tell later that a file at the same
   * path is still that one (the site build publishes record files by hard links: src/site/build/4-raw-records.ts).
   */
  identity?: string;
  /** The SHA-256 of `bytes`, when whoever read them worked it out (a thread that reads ahead: read-ahead.ts). */
  sha256?: string;
  /**
   * Not read yet (see LoadOptions.only), or let go again by a streaming validation (`onFile`, which keeps its `size`):
   * no bytes and no record until `recordAt` reads it.
   */
  unread?: true;
}

export interface LoadOptions {
  /**
   * Read only these files (paths from the root) now; list the others by name and read one only when a rule looks
   * it up (`recordAt`, e.g. a linked report). Checking one file of a large archive then costs one file, not all.
   */
  only?: ReadonlySet<string>;
  /** When a second thread reads the files ahead (read-ahead.ts): by default from READ_AHEAD_FROM files on. */
  readAhead?: ReaderOptions;
}

export interface LoadedArchive extends ArchiveLookup {
  root: string;
  files: LoadedFile[];
}

export class ArchiveRootError extends Error {}

/**
 * The journal of an intake accept that writes several files (src/intake/journal.ts). While it exists the archive
 * may hold half of that accept, so it is not read: the next intake run finishes the accept first.
 */
export const INTAKE_JOURNAL_NAME = '.intake-journal.json';

export async function loadArchive(root: string, { only, readAhead }: LoadOptions = {}): Promise<LoadedArchive> {
  const archive = listArchive(root);
  const toRead = archive.files.filter((file) => !only || only.has(file.path));
  const reader = openArchiveReader(root, toRead.filter((file) => file.path.endsWith('.json')).map((file) => file.path), readAhead);
  try {
    for (const file of toRead) {
      delete file.unread;
      fill(file, reader.read(file.path));
    }
  } finally {
    reader.close();
  }
  return archive;
}

/**
 * The archive listed by name, no file read yet (every file `unread`): a file is read when `recordAt` looks it up.
 * `loadArchive` reads from it; the streaming validation (validateArchive with `onFile`) reads each file itself, in
 * turn, and lets it go, so that the archive is never in memory at once.
 */
export function listArchive(root: string): LoadedArchive {
  // A missing root is an error, never an empty archive: a mistyped RECORDS_DIR must not publish nothing.
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ArchiveRootError(`the archive root ${root} is not a directory`);
  }
  if (existsSync(`${root}/${INTAKE_JOURNAL_NAME}`)) {
    throw new ArchiveRootError(
      `an intake accept into ${root} was interrupted (${INTAKE_JOURNAL_NAME} is there) and may be half written: run \`npm run intake -- recover\` to finish it`,
    );
  }
  let paths: string[];
  try {
    paths = listArchiveFiles(root);
  } catch (err) {
    throw new ArchiveRootError(`cannot read the archive root ${root}: ${(err as Error).message}`);
  }
  sortByCodePoints(paths);

  const files = paths.map((path): LoadedFile => ({ path, id: recordIdOf(path), size: 0, unread: true }));
  const byPath = new Map(files.map((f) => [f.path, f]));
  return {
    root,
    files,
    recordAt: (path) => {
      const f = byPath.get(path);
      if (!f || !f.path.endsWith('.json')) return undefined;
      if (f.unread) {
        delete f.unread;
        fill(f, readArchiveFile(root, path));
      }
      return f;
    },
  };
}

/**
 * Fills a listing entry with its file as read, parsed: its record and findings are getters of the read file
 * (read-file.ts), which Object.assign does not copy.
 */
function fill(entry: LoadedFile, read: LoadedFile): void {
  Object.assign(entry, read);
  if (read.bytes === undefined) return;
  entry.readFindings = read.readFindings;
  const record = read.record;
  if (record !== undefined) entry.record = record;
}

/** The file's text as read (for placing findings), decoded again from its bytes. */
export function textOf(file: LoadedFile): string | undefined {
  return file.bytes?.toString('utf8');
}

/** Code-point order, the same on every machine and locale (the public index relies on it). */
export const comparePaths = compareCodePoints;
