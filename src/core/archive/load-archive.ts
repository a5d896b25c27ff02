/**
 * Reads an archive root: every file under it (hidden files and folders excepted), in a stable order, with each
 * .json file parsed strictly. Reading is separate from judging so that callers (the CLI, the site) share it.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { parseStrictJson } from '../json/strict-parse.ts';
import type { Finding } from '../diagnostics/diagnostic.ts';
import { MAX_RECORD_BYTES } from '../rules/file/too-large.ts';
import type { ArchiveFile, ArchiveLookup, ArchiveRecord, JsonObject } from '../rules/rule.ts';
import { compareCodePoints, sortByCodePoints } from '../util/compare.ts';
import { listArchiveFiles } from './list-files.ts';
import { recordIdOf } from './paths.ts';

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

export async function loadArchive(root: string, { only }: LoadOptions = {}): Promise<LoadedArchive> {
  const archive = listArchive(root);
  for (const file of archive.files) {
    if (only && !only.has(file.path)) continue;
    delete file.unread;
    Object.assign(file, readArchiveFile(root, file.path));
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
        Object.assign(f, readArchiveFile(root, path));
      }
      return f;
    },
  };
}

/** One file of the archive, read and (a .json file within the size limit) parsed strictly. */
export function readArchiveFile(root: string, path: string): LoadedFile {
  const file: LoadedFile = { path, id: recordIdOf(path), size: 0 };
  if (!path.endsWith('.json')) return file;
  const { bytes, identity } = readWithIdentity(`${root}/${path}`);
  file.size = bytes.length;
  file.identity = identity;
  if (bytes.length > MAX_RECORD_BYTES) return file;
  file.bytes = bytes;
  // The decoded text is not kept: on 10,000 records it doubles what the garbage collector must carry, and
  // only files with findings need it again (textOf).
  const parsed = parseStrictJson(bytes);
  file.readFindings = parsed.findings;
  if (parsed.isObject) file.record = parsed.value as JsonObject;
  return file;
}

/** A file's bytes and identity (device and inode, from the very descriptor the bytes were read through). */
function readWithIdentity(path: string): { bytes: Buffer; identity: string } {
  const fd = openSync(path, 'r');
  try {
    const { dev, ino } = fstatSync(fd, { bigint: true });
    return { bytes: readFileSync(fd), identity: `${dev}:${ino}` };
  } finally {
    closeSync(fd);
  }
}

/** The file's text as read (for placing findings), decoded again from its bytes. */
export function textOf(file: LoadedFile): string | undefined {
  return file.bytes?.toString('utf8');
}

/** Code-point order, the same on every machine and locale (the public index relies on it). */
export const comparePaths = compareCodePoints;
