/**
 * What a site folder's record folders held when a build last finished in it, kept so that the next build in the same
 * folder does not read them all again. A build that updates its folder in place (scripts/build.ts) must find whatever a
 * record's folder (records/<id>/) holds besides its page, to remove it; at 100,000 records reading each folder was
 * 500,000 system calls, a second of a page thread's time in a build that changed one record.
 *
 * When a build has finished its folder (every file it did not place removed), it notes the moment, as the folder's
 * file system stamps files (src/core/util/change-time.ts): at that moment every record folder held its page alone. A
 * folder whose change time is still before the moment has had no entry added, removed or renamed since, so it still
 * holds its page alone, and one status call says so. Anything put into it since (a deploy step's `index.html.gz`, a
 * file left by hand) changed its change time, and it is read as before.
 *
 * The same moment says what the records' folder itself holds: the build noted how many records it placed, and the
 * few files it placed there besides (Astro's redirect of /records/), when nothing deeper was (its prune removed the
 * rest), so a records' folder whose change time is still before the moment holds those, and nothing else. The next
 * build there then does not list the folder's 200,000 names for its prune; it counts the records' folders it finds as
 * it places their pages, and lists the folder after all if it found fewer (a record gone from the archive: its files
 * are to go), and lists the noted files besides (they go unless placed again). The moment is taken once the folder's
 * last change lies before it (fileSystemNowAfter).
 *
 * One small file in the build cache, `record-folders.json`: for each site folder, by its device and inode (a folder
 * keeps them when it is renamed, as dist/ and its spare are), the moment, the records' count and the fingerprint of
 * the code that built it (another code may put other files in a record's folder). A folder whose inode is used again
 * by a newer folder is harmless: everything in the newer one changed after the moment. A damaged or missing file means no moment: every
 * folder is read.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { changedBefore } from '../../../core/util/change-time.ts';
import { fileIdentity } from '../../../core/util/file-identity.ts';
import { replaceCacheFile } from '../../../core/util/replace-file.ts';

const FILE_NAME = 'record-folders.json';
const FORMAT = 'echo-archive record folders 1';
/** Site folders remembered: dist/ and its spare, and a few more (--out-dir, tests); the newest kept. */
const KEPT = 8;

interface StampFile {
  format: string;
  /** "<dev>:<ino>" of a site folder → its moment (nanoseconds, as a decimal string) and the code that built it. */
  folders: Record<string, { before: string; code: string; records?: number; besides?: readonly string[] }>;
}

/**
 * A site folder's identity: its device and inode (fileIdentity), which a rename keeps (dist/ and its spare), for the
 * notes a build keeps of the folder (this one, and cache/placed-pages.ts). Undefined if it is not a folder.
 */
export function siteFolderKey(siteDir: string): string | undefined {
  const status = lstatSync(siteDir, { bigint: true, throwIfNoEntry: false });
  return status?.isDirectory() ? fileIdentity(status) : undefined;
}

function readStamps(cacheRoot: string): StampFile['folders'] {
  try {
    const value = JSON.parse(readFileSync(join(cacheRoot, FILE_NAME), 'utf8')) as Partial<StampFile>;
    if (value.format !== FORMAT || value.folders === null || typeof value.folders !== 'object' || Array.isArray(value.folders)) return {};
    return value.folders;
  } catch {
    return {};
  }
}

/**
 * The note of the last build of code `code` that finished in `siteDir` (undefined when none did, or the note is
 * damaged): its moment, before which a record folder that has not changed holds its page alone, and, when the
 * records' folder then held the records' folders and raw files alone, how many records (`records`): a records'
 * folder unchanged since the moment holds those still, and nothing else (recordsFolderAsNoted).
 */
export function recordFoldersNote(cacheRoot: string, siteDir: string, code: string): RecordFoldersNote | undefined {
  const key = siteFolderKey(siteDir);
  const stamp = key === undefined ? undefined : readStamps(cacheRoot)[key];
  if (stamp === undefined || stamp.code !== code || typeof stamp.before !== 'string' || !/^[0-9]{1,30}$/.test(stamp.before)) return undefined;
  const { records, besides } = stamp;
  const counted = Number.isSafeInteger(records) && records! >= 0 && Array.isArray(besides) && besides.every((name) => typeof name === 'string' && name !== '' && !name.includes('/'));
  return { before: BigInt(stamp.before), ...(counted ? { records: records!, besides: besides! } : {}) };
}

/** What the last build that finished in a site folder noted of it (recordFoldersNote). */
export interface RecordFoldersNote {
  /** The moment before which an unchanged record folder holds its page alone. */
  before: bigint;
  /**
   * When the records' folder then held nothing but the records' folders and raw files and the files named in
   * `besides` (placed there by the build too: Astro's redirect of /records/): how many records.
   */
  records?: number;
  besides?: readonly string[];
}

/**
 * Notes that at `moment` (fileSystemNow of the site folder, taken once the build removed everything it did not place)
 * every record folder of `siteDir` held its page alone, for code `code`; and, when the records' folder held nothing but
 * the records' folders and raw files and a few files of its own (RecordFoldersNote), how many records and which files. A note that cannot be written is left out: the
 * next build reads every folder, as without one.
 */
export function noteRecordFoldersAlone(cacheRoot: string, siteDir: string, code: string, moment: bigint, records?: { records: number; besides: readonly string[] }): void {
  const key = siteFolderKey(siteDir);
  if (key === undefined) return;
  const { [key]: _, ...others } = readStamps(cacheRoot);
  const folders = Object.fromEntries([[key, { before: String(moment), code, ...records }], ...Object.entries(others).slice(0, KEPT - 1)]);
  replaceCacheFile(join(cacheRoot, FILE_NAME), JSON.stringify({ format: FORMAT, folders } satisfies StampFile));
}

/**
 * What the records' folder `recordsDir` holds by the note (recordFoldersNote), if it has not changed since: the
 * records' folders and raw files of `records` records and the files `besides`, and nothing else. Undefined when the
 * note has no count, or the folder changed since its moment (or is gone); then it is to be listed. Asked before the
 * build places anything there.
 */
export function recordsFolderAsNoted(recordsDir: string, note: RecordFoldersNote | undefined): { records: number; besides: readonly string[] } | undefined {
  if (note?.records === undefined || note.besides === undefined) return undefined;
  const status = lstatSync(recordsDir, { bigint: true, throwIfNoEntry: false });
  return status?.isDirectory() && changedBefore(status, note.before) ? { records: note.records, besides: note.besides } : undefined;
}
