/**
 * Which page-cache entry each page of a site folder holds, as the last build that finished in the folder left it, so
 * that the next build there knows an unchanged page by the page's own status (one call) instead of also looking at
 * its entry in the cache (at 99,006 records 115,000 status calls of a page thread, in every build).
 *
 * A build notes, for each record and listing page it placed from the cache or stored there, the entry's name, with the
 * moment the build started (`before`, fileSystemNow of the site folder, taken before it read or placed anything). That
 * build looked at each page after that moment and found it to be the entry, or holding the entry's checked bytes. A
 * page whose status change time (ctime) is still before the moment has not changed since (src/core/util/change-time.ts:
 * a write, truncation, rename or new link would have set it later), so it still holds those bytes; if the cache still
 * names the same entry for the page's key now, the page is what this build would place. A page the build placed anew
 * (a new link, a rendered page) changed after the moment, and the next build looks at its entry as before.
 *
 * So a page that holds an entry's bytes in a file of its own (left by a build without the cache) can stay as it is,
 * known by its own ctime, rather than be linked to the entry: a new link changes the entry's ctime too, and every entry
 * so linked was read and hashed again by the next build (115,000 at 99,006 records: about 2 s, after each build over a
 * clean build's files).
 *
 * One file a site folder, `placed-pages/<device>-<inode>.txt` in the build cache: a folder keeps its device and inode
 * when it is renamed, as dist/ and its spare are (cache/record-folders-stamp.ts). Its first lines give the format, the
 * moment and the SHA-256 of the rest; a damaged, cut-short or foreign file is ignored whole (every page is looked at as
 * before). A newer folder that gets an inode used before is harmless: every page in it changed after the moment.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../../../core/crypto/sha256.ts';
import { replaceCacheFile } from '../../../core/util/replace-file.ts';
import { siteFolderKey } from './record-folders-stamp.ts';

const FOLDER = 'placed-pages';
const FORMAT = 'echo-archive placed pages 1';
/** Site folders remembered: dist/ and its spare, and a few more (--out-dir, tests); the newest kept. */
const KEPT = 8;

/** A site folder's pages as the last build that finished in it placed them. */
export interface PlacedPages {
  /** When that build started, as the folder's file system stamps files: a page changed before it is as it was placed. */
  before: bigint;
  /** A page (the worker's name for it: src/site/build/3-record-pages-worker.ts) → its entry in the page cache. */
  entries: Map<string, string>;
}

/** The file that notes the pages of the site folder `siteDir` (by its device and inode); undefined if it is no folder. */
export function placedPagesFile(cacheRoot: string, siteDir: string): string | undefined {
  const key = siteFolderKey(siteDir);
  return key === undefined ? undefined : join(cacheRoot, FOLDER, `${key.replace(':', '-')}.txt`);
}

/**
 * The pages noted in `file` (placedPagesFile) for a build that started at `now` (fileSystemNow of the site folder);
 * undefined when there is none, it is damaged or of another format, or its moment is not before `now` (the clock was
 * set back since, or the note came from another machine's cache: a ctime is then no measure of before).
 */
export function readPlacedPages(file: string, now: bigint): PlacedPages | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  let headerEnd = 0;
  for (let line = 0; line < 3; line++) {
    const end = bytes.indexOf(0x0a, headerEnd); // "\n"
    if (end === -1) return undefined;
    headerEnd = end + 1;
  }
  const header = /^([^\n]*)\nbefore ([0-9]{1,30})\nsha256 ([0-9a-f]{64})\n$/.exec(bytes.toString('utf8', 0, headerEnd));
  if (header === null || header[1] !== FORMAT || sha256Hex(bytes.subarray(headerEnd)) !== header[3]) return undefined;
  const body = bytes.toString('utf8', headerEnd);
  const entries = new Map<string, string>();
  for (let start = 0; start < body.length; ) {
    const end = body.indexOf('\n', start);
    const tab = body.indexOf('\t', start);
    if (end === -1 || tab === -1 || tab > end) return undefined;
    entries.set(body.slice(start, tab), body.slice(tab + 1, end));
    start = end + 1;
  }
  const before = BigInt(header[2]!);
  return before < now ? { before, entries } : undefined;
}

/**
 * Notes the pages of `siteDir` that a build which started at `before` (fileSystemNow of the folder) placed, as pairs of
 * page and entry one after the other (`pages`), once the build has finished the folder; the oldest notes beyond KEPT
 * go. A note that cannot be written is left out: the next build looks at every page's entry, as without one.
 */
export function writePlacedPages(cacheRoot: string, siteDir: string, before: bigint, pages: readonly string[]): void {
  const file = placedPagesFile(cacheRoot, siteDir);
  if (file === undefined) return;
  const lines: string[] = [];
  // A page whose name would break its line is left out (it is looked at as before).
  for (let i = 0; i + 1 < pages.length; i += 2) if (!/[\t\n]/.test(pages[i]!)) lines.push(`${pages[i]}\t${pages[i + 1]}\n`);
  const body = Buffer.from(lines.join(''));
  try {
    mkdirSync(join(cacheRoot, FOLDER), { recursive: true });
  } catch {
    return;
  }
  const header = Buffer.from(`${FORMAT}\nbefore ${before}\nsha256 ${sha256Hex(body)}\n`);
  if (!replaceCacheFile(file, Buffer.concat([header, body]))) return;
  forgetOldest(join(cacheRoot, FOLDER));
}

/** Removes all but the KEPT newest notes in `dir` (by modification time). */
function forgetOldest(dir: string): void {
  try {
    const notes = readdirSync(dir)
      .filter((name) => name.endsWith('.txt'))
      .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { name } of notes.slice(KEPT)) rmSync(join(dir, name), { force: true });
  } catch {
    // another build removed one meanwhile: the next write tries again
  }
}
