/**
 * Updating a folder in place, file by file: a file is replaced only when what it holds would change, and a prune
 * removes what the update did not place, so that a build over the previous build's folder writes what changed and
 * nothing else, and ends byte-identical to a build into an empty one (scripts/build.ts, src/site/build/integration.ts).
 *
 * A file is never written through: it is removed and made afresh, because it may be a hard link to a page-cache entry
 * or to a record file, which must not change with it. Nothing here needs the folder to have been left whole: a file cut
 * short, a stray file or a folder where a file belongs (a build that was killed) is found by the same comparisons and
 * replaced, and the prune removes the rest. Hand-written: the one library that syncs folders (rsync-like ones) copies
 * from a source tree, and here most files come from links and renderers, one at a time, on several threads.
 */
import { copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { sha256Hex } from '../crypto/sha256.ts';
import { fileIdentity } from './file-identity.ts';
import { linkOrCopySync } from './link-or-copy.ts';
import { runInSlices, runToEnd } from './time-slices.ts';

/**
 * `file`'s status without following a link, or undefined if nothing is there; in nanoseconds and 64-bit inodes, what
 * fileIdentity and changedBefore read (linkIfChanged gives it back to its caller).
 */
function lstatOrUndefined(file: string): BigIntStats | undefined {
  try {
    return lstatSync(file, { bigint: true });
  } catch {
    return undefined;
  }
}

/**
 * Whether `file` (its status `found`) is a regular file holding exactly the bytes of a file of `size` bytes, read by
 * `bytes` only when the sizes agree.
 */
function holds(file: string, found: BigIntStats | undefined, size: number, bytes: () => Uint8Array): boolean {
  return found !== undefined && found.isFile() && Number(found.size) === size && readFileSync(file).equals(bytes());
}

/** Clears the way for a new file at `file`: what is there goes (a folder whole), and its folder is made. */
function clear(file: string, found: BigIntStats | undefined): void {
  if (found?.isDirectory()) rmSync(file, { recursive: true, force: true });
  else if (found !== undefined) unlinkSync(file);
  makeFolder(dirname(file));
}

/** Makes `dir` and its parents; a file in the way (where the last build had a file, this one has a folder) goes. */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
    // The nearest part of the path that exists is the file in the way.
    let blocking = dir;
    let found = lstatOrUndefined(blocking);
    while (found === undefined && dirname(blocking) !== blocking) found = lstatOrUndefined((blocking = dirname(blocking)));
    if (found === undefined || found.isDirectory()) throw err;
    unlinkSync(blocking);
    mkdirSync(dir, { recursive: true });
  }
}

/** Puts `bytes` at `file` unless it holds them already. True if the file was written. */
export function writeIfChanged(file: string, bytes: Uint8Array | string): boolean {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const found = lstatOrUndefined(file);
  if (holds(file, found, data.byteLength, () => data)) return false;
  clear(file, found);
  writeFileSync(file, data);
  return true;
}

/** What a caller knows already of linkIfChanged's source, so that it is not looked at again. */
export interface KnownSource {
  /** Its bytes (a verified cache entry), so that they are not read again. */
  bytes?: Uint8Array;
  /**
   * Its identity (fileIdentity: `<device>:<inode>`) when the caller looked at it: a `file` that is that very file is
   * left as it is without a look at the source. Only for a source that the caller checked at that identity (a verified
   * cache entry, the record file validation read): if the source was replaced since, `file` keeps those bytes.
   */
  identity?: string;
  /**
   * The SHA-256 its bytes must have (a cache entry's, as its name gives it). With it, a `file` of its own that holds
   * the same bytes stays as it is, known by its own status from then on (src/site/build/cache/placed-pages.ts), rather
   * than be replaced by a link: a new link changes the source's status too, and the cache then reads and hashes its
   * entry again. The source's bytes, when they are read to compare, are checked against it first: they must be the
   * checked bytes, not whatever the entry holds by then.
   */
  sha256?: string;
}

/**
 * Makes `file` hold what `source` holds: left as it is when it is that very file (a hard link to it), or when it holds
 * the same bytes in a file of its own and the caller knows the source's hash (KnownSource.sha256); the same bytes
 * otherwise are made a link to the source; other bytes, a new hard link, or a copy where links are impossible.
 * Whether `file` is a link or a copy, whether it changed, and, when it was left as it was found, its status (for a
 * caller that would look at it again: the raw records' change time).
 */
export function linkIfChanged(source: string, file: string, known: KnownSource = {}): { how: 'linked' | 'copied'; changed: boolean; status?: BigIntStats } {
  const found = lstatOrUndefined(file);
  if (found?.isFile()) {
    // At 100,000 records each build looks at some 200,000 files placed by the last one: one look fewer for each, when
    // the caller knows the source's identity, was about a second of a page thread's time.
    if (known.identity !== undefined && fileIdentity(found) === known.identity) return { how: 'linked', changed: false, status: found };
    const from = statSync(source, { bigint: true });
    if (found.ino === from.ino && found.dev === from.dev) return { how: 'linked', changed: false, status: found };
    // The same bytes in a file of its own (written by a build without the cache): left as it is when the caller knows
    // the source's hash (see KnownSource.sha256), else made a link, not a change, so that the next build knows it by
    // its inode instead of reading it again.
    if (known.sha256 !== undefined) {
      if (holds(file, found, Number(from.size), () => checkedBytes(source, known))) return { how: 'copied', changed: false, status: found };
    } else if (holds(file, found, Number(from.size), () => known.bytes ?? readFileSync(source))) {
      return { how: relink(source, file) ? 'linked' : 'copied', changed: false };
    }
  }
  clear(file, found);
  return { how: linkOrCopySync(source, file) ? 'linked' : 'copied', changed: true };
}

/** The source's bytes as the caller knows them, or read and found to hash to `known.sha256`; else an error. */
function checkedBytes(source: string, known: KnownSource): Uint8Array {
  if (known.bytes !== undefined) return known.bytes;
  const bytes = readFileSync(source);
  if (sha256Hex(bytes) !== known.sha256) throw new Error(`${source} no longer holds the bytes it was checked to hold`);
  return bytes;
}

/** Replaces `file` by a hard link to `source` in one step (a link beside it, renamed over it); false where links fail. */
function relink(source: string, file: string): boolean {
  const beside = `${file}.relink-${process.pid}-${threadId}`;
  try {
    linkSync(source, beside);
    renameSync(beside, file);
    return true;
  } catch {
    rmSync(beside, { force: true });
    return false;
  }
}

/** Moves `source` to `file` unless `file` holds the same bytes already (then `source` is left). True if moved. */
export function moveIfChanged(source: string, file: string): boolean {
  const found = lstatOrUndefined(file);
  if (holds(file, found, statSync(source).size, () => readFileSync(source))) return false;
  clear(file, found);
  try {
    renameSync(source, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copyFileSync(source, file);
  }
  return true;
}

/** Every file under `root`, as paths relative to it with "/" between names. */
export function filesUnder(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else files.push(prefix + entry.name);
    }
  };
  walk(root, '');
  return files;
}

/**
 * Removes from `root` everything but the files `keep` names (relative paths, "/" between names) and the folders that
 * hold them; folders left empty go too. How many files (or other entries) were removed.
 */
export function pruneFolder(root: string, keep: PathSet): number {
  let removed = 0;
  /** Prunes `dir`; whether it is empty afterwards. */
  const walk = (dir: string, prefix: string): boolean => {
    let left = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (walk(path, `${prefix}${entry.name}/`)) rmdirSync(path);
        else left++;
      } else if (keep.has(prefix + entry.name)) left++;
      else {
        unlinkSync(path);
        removed++;
      }
    }
    return left === 0;
  };
  walk(root, '');
  return removed;
}

/** What a folder held when it was listed (listTree): its files and its folders, relative paths with "/" between names. */
export interface TreeListing {
  files: string[];
  /** Deepest first: a folder comes before the folder that holds it. */
  folders: string[];
}

/** Adds `more` to `listing`, its paths under `prefix` (a folder's path ending in "/", or "" for the same root). */
export function addToListing(listing: TreeListing, more: TreeListing, prefix = ''): void {
  for (const file of more.files) listing.files.push(prefix + file);
  for (const folder of more.folders) listing.folders.push(prefix + folder);
}

/**
 * Lists every file and folder under `root`, for pruneListed: a build lists its folder while its pages are still being
 * written (on other threads), instead of walking it after them.
 */
export function listTree(root: string): TreeListing {
  const listing: TreeListing = { files: [], folders: [] };
  runToEnd(listTreeSteps(root, listing));
  return listing;
}

/**
 * What a walk of a folder need not list (listTreeInSlices): entries that another lists, or that a prune keeps anyway.
 * Asked with the entry's folder (its path from the root: "" or ending in "/") and name apart, so that a walk of a
 * folder of 200,000 entries (a site's records/) makes no path for those it passes over.
 */
export interface PassOver {
  passesOver(folder: string, name: string, isFolder: boolean): boolean;
}

/**
 * listTree in slices of the thread's time (src/core/util/time-slices.ts), for a thread that hands out work meanwhile.
 * What `passOver` passes over is not listed: a folder is neither listed nor walked (the caller learns what it holds
 * otherwise: a build's page threads list each record's folder as they place its page,
 * src/site/build/3-record-pages-worker.ts), a file is one the prune keeps (a record's raw file: a build places one for
 * each of its records); and a folder that holds anything passed over is not listed either, as it stays.
 */
export async function listTreeInSlices(root: string, passOver?: PassOver): Promise<TreeListing> {
  const listing: TreeListing = { files: [], folders: [] };
  await runInSlices(listTreeSteps(root, listing, passOver));
  return listing;
}

/** listTree's walk into `listing`, a step per folder read; what `passOver` passes over is left out. */
function* listTreeSteps(root: string, listing: TreeListing, passOver?: PassOver): Generator<void> {
  /** Walks `dir`; whether it passed over anything in it (then `dir` stays, and is not listed). */
  function* walk(dir: string, prefix: string): Generator<void, boolean> {
    const entries = readdirSync(dir, { withFileTypes: true });
    yield;
    let passed = false;
    for (const entry of entries) {
      const isFolder = entry.isDirectory();
      if (passOver?.passesOver(prefix, entry.name, isFolder)) passed = true;
      else if (!isFolder) listing.files.push(prefix + entry.name);
      else if (yield* walk(join(dir, entry.name), `${prefix}${entry.name}/`)) passed = true;
      else listing.folders.push(prefix + entry.name);
    }
    return passed;
  }
  yield* walk(root, '');
}

/**
 * What a prune keeps: a set of paths, or anything that can tell whether it holds one (src/site/build/site-build.ts:
 * PlacedFiles).
 */
export interface PathSet {
  has(path: string): boolean;
}

/** Files set aside between two pauses of setAsideKept (a few milliseconds' work). */
const SET_ASIDE_STEP = 4_096;

/**
 * `listing` without what `kept` names: its files that `kept` names, and every folder that holds one, which stays
 * whatever else it holds. pruneListed over the rest, with a keep set that holds `kept` and more, does what it does over
 * the whole listing; a build sets aside the 230,000 files it placed while its page threads finish, and prunes what is
 * left once they are done (at 100,000 records 0.1 s less at the build's end). In steps, for runInSlices.
 */
export function* setAsideKept(listing: TreeListing, kept: PathSet): Generator<void, TreeListing> {
  const files: string[] = [];
  const staying = new Set<string>();
  for (let i = 0; i < listing.files.length; i++) {
    const path = listing.files[i]!;
    if (!kept.has(path)) files.push(path);
    // Its folder stays, and the folders that hold it: marked up to the first one marked already.
    else for (let folder = parentOf(path); folder !== '' && !staying.has(folder); folder = parentOf(folder)) staying.add(folder);
    if (i % SET_ASIDE_STEP === SET_ASIDE_STEP - 1) yield;
  }
  return { files, folders: listing.folders.filter((folder) => !staying.has(folder)) };
}

function parentOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}

/**
 * pruneFolder over a listing made earlier (listTree): removes the listed files that `keep` does not name, then the
 * listed folders left empty. Between the listing and now, files may have been written, folders made and files or
 * folders replaced, as long as every file added is one `keep` names: the folder then ends as pruneFolder would leave
 * it. A listed entry that is gone, or is now of the other kind, is passed over. How many files were removed.
 */
export function pruneListed(root: string, listing: TreeListing, keep: PathSet): number {
  let removed = 0;
  // A folder is tried only when nothing listed in it stays: a kept file, or a folder that stays (deepest first, so a
  // folder's fate is known before its parent's). Trying every folder cost 0.7 s at 100,000 record pages, each failing.
  const staying = new Set<string>();
  for (const path of listing.files) {
    if (keep.has(path)) {
      staying.add(parentOf(path));
      continue;
    }
    const file = join(root, path);
    try {
      unlinkSync(file);
      removed++;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // gone, its folder replaced by a file, or a folder now (unlink never removes one; some systems say EPERM)
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && !lstatOrUndefined(file)?.isDirectory()) throw err;
    }
  }
  for (const path of listing.folders) {
    if (!staying.has(path)) {
      try {
        rmdirSync(join(root, path));
        continue;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue; // gone already: nothing of it stays
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
      }
    }
    staying.add(parentOf(path));
  }
  return removed;
}
