/**
 * The page cache: a rendered record page or listing page is reused when everything it is made from is unchanged, so
 * that a build renders only the pages of records that changed (or whose related records changed) and the few listing
 * pages an append or an edit changes (a listing page's key is its whole job: src/site/model/listing-jobs.ts).
 *
 * Content-addressed: an entry is the page itself, at `<dir>/<kk>/<key>.<sha256>.html`, where `key` is the SHA-256 of
 * everything the page is made from (pageCacheKey) and `sha256` that of the page's bytes, and beside it the record's
 * search document made from the same input (`<key>.<sha256>.json`, src/site/render/record-page/search-document.ts), so
 * that a page from the cache needs no parsing of its record; `kk` is the key's first
 * two digits (a few hundred entries per folder at 100,000 records). The file system is the index: no manifest that
 * could disagree with the entries. An entry is used only when its bytes hash to the name's `sha256`: a damaged,
 * partial or tampered entry is ignored (the page is rendered again and stored afresh), never trusted. A foreign entry
 * (other code, another configuration, another record) has another key and is never looked at.
 *
 * Checked once, then known by its change time: an entry is read and hashed by the first build that uses it after it
 * was made or last changed, and not again while its status change time (ctime, src/core/util/change-time.ts) stays
 * before the start of the last build that pruned the cache (the stamp, readStamp). An entry that old was in the
 * cache all through that build, which checked it by its hash or knew it the same way (and removed every entry it did
 * not use). At 100,000 records this spares reading and hashing some 2 GB of unchanged pages on every build. A search
 * document is never known this way: a page thread names it as the cache was listed (named), and the search index
 * reads it, and checks it by its hash, only where it makes the document's segment (src/site/build/7-search-segments.ts).
 *
 * A page of the site folder a build updates is known by its own status instead, when it has not changed since the last
 * build there, which noted it as the same entry (placedUnchanged, cache/placed-pages.ts).
 *
 * Entries are hard links to the pages of the build that rendered them (no second copy on disk; copied across file
 * systems). A build prunes the cache to its own pages when a prune is due (pruneDue: after PRUNE_AFTER entries stored
 * since the last, or a build that checked many by their hash); until then the entries it replaced stay.
 */
import { randomUUID } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { fileIdentity } from '../../../core/util/file-identity.ts';
import { sha256Hex } from '../../../core/crypto/sha256.ts';
import { changedBefore, fileSystemNow } from '../../../core/util/change-time.ts';
import { linkOrCopySync } from '../../../core/util/link-or-copy.ts';
import { replaceCacheFile } from '../../../core/util/replace-file.ts';
import { runInSlices, runToEnd } from '../../../core/util/time-slices.ts';
import type { FrameSettings } from '../../render/page-frame.ts';
import type { ListingJob } from '../../model/listing-jobs.ts';
import { summarySourceOf } from '../../model/summary-source.ts';
import { readPlacedPages, type PlacedPages } from './placed-pages.ts';

/** Bumped when the entry layout or the key's inputs change: older entries then never match. */
export const PAGE_CACHE_FORMAT = 2;

/** What a build's record-page threads need to use the cache (sent with each batch). */
export interface PageCacheSettings {
  /** The cache folder (`pages/` in the build cache). */
  dir: string;
  /** The fingerprint of the code that renders pages (code-fingerprint.ts, PAGE_CODE). */
  code: string;
  /** This build's id: a thread's listing of the cache is kept for one build only. */
  build: string;
  /**
   * When the last build that pruned the cache started, as the cache's file system stamps files (readStamp):
   * an entry that last changed before it (changedBefore) was checked by that build, and is used without being read
   * and hashed again. Without it every entry is checked.
   */
  checkedBefore?: bigint;
  /**
   * The note of which entry each page of the site folder this build updates held when the last build there finished
   * (cache/placed-pages.ts), and this build's start on that folder's file system: a page unchanged since is known by
   * its own status (placedUnchanged).
   */
  placedPages?: { file: string; now: bigint };
}

/** An entry found for a key: its name, and its bytes when they were read (to be checked, or because they were asked for). */
export interface PageCacheHit {
  name: string;
  /** The SHA-256 of its bytes, as its name gives it: a page holding other bytes is not the entry's. */
  sha256: string;
  /** The entry's bytes, when they were read and hashed now. */
  bytes?: Buffer;
  /** The entry's identity (fileIdentity), when it was known unchanged by its change time: a page linked to it is that file. */
  identity?: string;
}

/**
 * What an entry holds: the page, the record's search document, a compressed file of the search index
 * (search-index-cache.ts) or the browse script's bundle (browse-script-cache.ts).
 */
export type PageCacheKind = 'html' | 'json' | 'gz' | 'js';

/** An entry's name is `<key>.<sha256>.<kind>`: two 64-digit hashes and a kind (entryOf reads it). */
const KINDS: ReadonlySet<string> = new Set<PageCacheKind>(['html', 'json', 'gz', 'js']);
const HASH = 64;
/** A folder of entries: the first two digits of their keys. */
const FOLDER = /^[0-9a-f]{2}$/;

/**
 * The key of a record page: SHA-256 over the cache format, the code, the site frame (base, site URL, stylesheet)
 * and the page's whole input but the record, which the input names by the SHA-256 of its bytes (with its relations:
 * the summaries of the records it links to or that link to it, what it supersedes or is superseded by, its log leaf).
 * JSON.stringify rather than RFC 8785: the input is built by our own code in a fixed member order (and the code is
 * in the key), and record text may hold unpaired surrogates, which RFC 8785 cannot represent.
 */
export function pageCacheKey(code: string, frame: FrameSettings, page: unknown): string {
  return sha256Hex(JSON.stringify([PAGE_CACHE_FORMAT, code, frame, page]));
}

/**
 * The hash of each list of filter counts, and of each record summary that has no source (summarySourceOf), worked out
 * once per build: one list of counts is shared by every listing page but the front pages, a summary by the 8 or so
 * listings it is in.
 */
const jsonHashes = new WeakMap<object, string>();

/** The SHA-256 of `value`'s JSON, kept for this very object (the model's, never changed once made). */
function jsonHashOnce(value: object): string {
  let hash = jsonHashes.get(value);
  if (hash === undefined) jsonHashes.set(value, (hash = sha256Hex(JSON.stringify(value))));
  return hash;
}

/**
 * The key of a listing page, worked out on the main thread: the key of its whole job (pageCacheKey), with each of the
 * page's record summaries named by what it is made from (a record file's path and hash: summarySourceOf) or else by
 * the SHA-256 of its JSON, and its filters' counts by theirs, rather than written out. The same inputs decide it, at a
 * tenth of the text (the counts alone were half of it, 3 KB a page): so the main thread sends a thread only the key of
 * a page the cache holds, and the job's 50 summaries only when the page is to be rendered
 * (src/site/build/3-record-pages.ts). The summaries and counts are the model's, never changed once made, so a hash
 * kept for one stays right.
 */
export function listingCacheKey(code: string, frame: FrameSettings, script: string, job: ListingJob): string {
  const { view } = job;
  const items = view.page.items.map((summary) => summarySourceOf(summary) ?? jsonHashOnce(summary));
  const keyed = { ...view, page: { ...view.page, items }, counts: jsonHashOnce(view.counts) };
  return pageCacheKey(code, frame, ['listing', script, { ...job, view: keyed }]);
}

/** The entry name of a page with `key` and these bytes. */
export function pageEntryName(key: string, bytes: Uint8Array | string, kind: PageCacheKind = 'html'): string {
  return `${key.slice(0, 2)}/${key}.${sha256Hex(bytes)}.${kind}`;
}

/**
 * One thread's view of the cache during a build: finds verified entries, stores new ones. Each folder of the cache
 * is listed when first needed, or taken from `listing`: the main thread's listing for the prune (listPageCache), so
 * that the pages it renders itself look nothing up again (at 100,000 records that was a second listing of 214,000
 * names, 0.25 s of that thread). An entry made after such a listing is not found: its page is rendered again.
 */
export class PageCache {
  private readonly listed = new Map<string, Map<string, EntryOf[]>>();
  readonly settings: PageCacheSettings;
  private readonly listing: PageCacheListing | undefined;
  constructor(settings: PageCacheSettings, listing?: PageCacheListing) {
    this.settings = settings;
    this.listing = listing;
  }

  /**
   * The entries this thread looked at: how many it read and hashed (used or refused), how many it knew unchanged by
   * their ctime; and how many it stored.
   */
  readonly checks = { hashed: 0, known: 0, stored: 0 };

  /** The bytes of a whole entry for `key` (its name, relative to the cache folder, and bytes), if there is one. */
  find(key: string, kind: PageCacheKind = 'html'): { name: string; bytes: Buffer } | undefined {
    const hit = this.locate(key, kind);
    if (hit === undefined || hit.bytes !== undefined) return hit as { name: string; bytes: Buffer } | undefined;
    try {
      return { name: hit.name, bytes: readFileSync(join(this.settings.dir, hit.name)) };
    } catch {
      return undefined; // removed this very moment (another build pruned it)
    }
  }

  /**
   * A whole entry for `key`, if there is one: known unchanged since an earlier build checked it (no bytes read), or
   * read and hashed now (its bytes come with it).
   */
  locate(key: string, kind: PageCacheKind = 'html'): PageCacheHit | undefined {
    const prefix = key.slice(0, 2);
    const { checkedBefore } = this.settings;
    for (const entry of this.folder(prefix).get(key) ?? []) {
      if (entry.kind !== kind) continue;
      const name = `${prefix}/${key}.${entry.sha256}.${kind}`;
      // Not path.join: the folder is a normalised absolute path and the name a relative one of our own (a third of a
      // page thread's time in this function at 100,000 records went to join's normalising).
      const path = `${this.settings.dir}/${name}`;
      if (checkedBefore !== undefined) {
        const status = lstatSync(path, { bigint: true, throwIfNoEntry: false });
        if (status === undefined) continue; // removed since it was listed (another build pruned it)
        if (status.isFile() && changedBefore(status, checkedBefore)) {
          this.checks.known++;
          return { name, sha256: entry.sha256, identity: fileIdentity(status) };
        }
      }
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        continue; // removed since it was listed, or not a file
      }
      this.checks.hashed++;
      if (sha256Hex(bytes) === entry.sha256) return { name, sha256: entry.sha256, bytes };
    }
    return undefined;
  }

  /**
   * The entry the page at `file` (`page`, as placed-pages.ts notes it) holds, if it is the one this cache has for `key`
   * and the page has not changed since the last build that finished in its folder looked at it: known by the page's
   * status alone (placed-pages.ts), not the entry's. Undefined otherwise: then the entry is located as usual.
   */
  placedUnchanged(page: string, key: string, file: string): string | undefined {
    const placed = this.placedNote();
    const name = placed?.entries.get(page);
    if (placed === undefined || name === undefined || name !== this.named(key, 'html')) return undefined;
    const status = lstatSync(file, { bigint: true, throwIfNoEntry: false });
    if (!status?.isFile() || !changedBefore(status, placed.before)) return undefined;
    this.checks.known++;
    return name;
  }

  /** The site folder's pages as the last build there placed them (readPlacedPages), read once; null if there are none. */
  private placed: PlacedPages | null | undefined;
  private placedNote(): PlacedPages | undefined {
    const note = this.settings.placedPages;
    if (this.placed === undefined) this.placed = (note !== undefined && readPlacedPages(note.file, note.now)) || null;
    return this.placed ?? undefined;
  }

  /**
   * The name of an entry for `key` as the cache was listed, without looking at it: for a search document, which is
   * referenced by name and read, and checked by its hash, only where its segment of the search index is made
   * (src/site/build/7-search-segments.ts). At 100,000 records looking at each was 0.26 s of a page thread.
   */
  named(key: string, kind: PageCacheKind): string | undefined {
    const prefix = key.slice(0, 2);
    const entry = this.folder(prefix).get(key)?.find((e) => e.kind === kind);
    return entry && `${prefix}/${key}.${entry.sha256}.${kind}`;
  }

  /**
   * Lists every folder of the cache now rather than each when first needed, and reads the note of the site folder's
   * pages (placedUnchanged): for a thread with time to spare before its first pages (at 100,000 records a page thread
   * waits about a second for the archive's model, and listing the cache's 214,000 names takes it half as long).
   */
  listEvery(): void {
    for (const name of readNames(this.settings.dir)) if (FOLDER.test(name)) this.folder(name);
    this.placedNote(); // and the note of the site folder's pages
  }

  /** The entries of the cache's folder `prefix`, by key: listed once. */
  private folder(prefix: string): Map<string, EntryOf[]> {
    let folder = this.listed.get(prefix);
    if (folder === undefined) {
      folder = entriesByKey(this.listing ? (this.listing.folders.get(prefix) ?? []) : readNames(join(this.settings.dir, prefix)));
      this.listed.set(prefix, folder);
    }
    return folder;
  }

  /**
   * Stores the page just written at `file` (these `bytes`) as the entry for `key`; its name, or undefined when the
   * cache cannot be written (full, read-only): a cache that fails costs the next build time, never this build.
   */
  store(key: string, file: string, bytes: Uint8Array | string): string | undefined {
    const name = pageEntryName(key, bytes);
    try {
      mkdirSync(join(this.settings.dir, key.slice(0, 2)), { recursive: true });
      // A link is whole or absent; a copy (across file systems) could be cut short, which the hash check then catches.
      linkOrCopySync(file, join(this.settings.dir, name));
      this.checks.stored++;
      return name;
    } catch {
      return undefined;
    }
  }

  /** Stores `bytes` (a search document) as the `kind` entry for `key`: written under a temporary name and renamed. */
  storeBytes(key: string, bytes: Uint8Array | string, kind: PageCacheKind): string | undefined {
    const name = pageEntryName(key, bytes, kind);
    try {
      mkdirSync(join(this.settings.dir, key.slice(0, 2)), { recursive: true });
    } catch {
      return undefined;
    }
    if (!replaceCacheFile(join(this.settings.dir, name), bytes)) return undefined;
    this.checks.stored++;
    return name;
  }
}

/** The names in a folder of the cache; none if it cannot be read (not made yet). */
function readNames(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

/** An entry's name read (entryOf): its key, the hash of its bytes and its kind. */
export interface EntryOf {
  key: string;
  sha256: string;
  kind: PageCacheKind;
}

/**
 * An entry's key, hash and kind, read by position: a name of another shape is none. Its digits are not checked one by
 * one (a pattern that did took 0.1 s of a thread for 214,000 names): a name with other characters is never asked for
 * (keys are hex), and an entry is used only when its bytes hash to the hash its name gives. The key and hash are
 * slices of the name, so that looking a key up compares flat strings (a key made of the key and kind joined took a
 * page thread 0.3 s of lookups at 100,000 records).
 */
export function entryOf(name: string): EntryOf | undefined {
  if (name.length < 2 * HASH + 4 || name.charCodeAt(HASH) !== 46 || name.charCodeAt(2 * HASH + 1) !== 46) return undefined; // "."
  const kind = name.slice(2 * HASH + 2);
  if (!KINDS.has(kind)) return undefined;
  return { key: name.slice(0, HASH), sha256: name.slice(HASH + 1, 2 * HASH + 1), kind: kind as PageCacheKind };
}

/** key → its entries, from the names in one folder of the cache. */
function entriesByKey(names: readonly string[]): Map<string, EntryOf[]> {
  const entries = new Map<string, EntryOf[]>();
  for (const name of names) {
    const entry = entryOf(name);
    if (entry === undefined) continue;
    const same = entries.get(entry.key);
    if (same === undefined) entries.set(entry.key, [entry]);
    else same.push(entry);
  }
  return entries;
}

/** What the cache's folder held when it was listed (listPageCache): each folder's names, and the files beside them. */
export interface PageCacheListing {
  folders: Map<string, string[]>;
  /** Files at the top of the cache: the stamp, and anything else, which is not ours. */
  files: string[];
}

/** Lists the cache at `dir` for its prune (prunePageCache), in slices of the thread's time (src/core/util/time-slices.ts). */
export async function listPageCache(dir: string): Promise<PageCacheListing> {
  const listing: PageCacheListing = { folders: new Map(), files: [] };
  await runInSlices(listPageCacheSteps(dir, listing));
  return listing;
}

/** listPageCache's walk into `listing`, a step per folder read. */
function* listPageCacheSteps(dir: string, listing: PageCacheListing): Generator<void> {
  let names: Dirent[];
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of names) {
    if (!entry.isDirectory()) {
      listing.files.push(entry.name);
      continue;
    }
    try {
      listing.folders.set(entry.name, readdirSync(join(dir, entry.name)));
    } catch {
      // gone since: nothing of it to prune
    }
    yield;
  }
}

/**
 * Removes every file of the cache but the entries named in `keep`: the cache holds the last build's pages. The stamp
 * goes with the rest: it speaks for the cache as the build that wrote it left it. Given `started`, when the pruning
 * build started (pageCacheStart), the prune then leaves that build's own stamp, once nothing it did not use is left.
 *
 * Given `listing`, the cache as the build listed it after `started` while its pages were still being made
 * (listPageCache), only what was listed is removed: an entry made since is one the build placed (`keep` names it) or
 * another build's, and a folder goes only if it is empty. Entries made before `started` were all listed, so the
 * stamp's promise holds: every entry changed before it was checked or made by this build.
 */
export function prunePageCache(dir: string, keep: ReadonlySet<string>, started?: bigint, listing?: PageCacheListing): number {
  const removed = pruneEntries(dir, keep, listing ?? listNow(dir));
  if (started !== undefined) writeCheckedStamp(dir, started);
  return removed;
}

/** The cache at `dir` as it is now, listed at once. */
function listNow(dir: string): PageCacheListing {
  const listing: PageCacheListing = { folders: new Map(), files: [] };
  runToEnd(listPageCacheSteps(dir, listing));
  return listing;
}

function pruneEntries(dir: string, keep: ReadonlySet<string>, { folders, files }: PageCacheListing): number {
  let removed = 0;
  for (const name of files) {
    rmSync(join(dir, name), { force: true }); // not a folder: not ours
    removed++;
  }
  for (const [folder, names] of folders) {
    const path = join(dir, folder);
    let left = names.length;
    for (const name of names) {
      if (keep.has(`${folder}/${name}`)) continue;
      rmSync(join(path, name), { recursive: true, force: true });
      removed++;
      left--;
    }
    if (left === 0) {
      try {
        rmdirSync(path);
      } catch {
        // not empty (an entry made since it was listed), or gone already
      }
    }
  }
  return removed;
}

/** The stamp's file in the cache folder, and its first line (bumped if what the stamp means ever changes). */
const STAMP = 'checked-before';
const STAMP_FORMAT = 'echo-archive page cache stamp 3';

/**
 * Entries a build may check by their hash, or builds may store since the last prune, before a build prunes the cache
 * (pruneDue). A prune lists every entry (214,000 at 100,000 records) and was 0.35 s of the main thread at the end of
 * every build; between prunes an entry stored since the stamp is checked by its hash by each build that uses it (1,000
 * such pages: about 20 ms of a page thread), and an entry no longer used stays on disk (at most 1,000: about 17 MB).
 */
export const PRUNE_AFTER = 1_000;

/**
 * Whether a build prunes the cache and leaves its own stamp, from what it found and did: when the cache had no stamp
 * of ours (`storedSince` undefined: a new cache, another format, a stamp that cannot be trusted); when it checked by
 * their hash PRUNE_AFTER entries or more, or a quarter or more of those it used (the new stamp spares the next build
 * checking them again: after a build that linked every page anew into the other site folder, 115,000 at 100,000
 * records); or when builds stored PRUNE_AFTER entries since the last prune (each may have replaced one, now unused).
 */
export function pruneDue(storedSince: number | undefined, { hashed, known, stored }: { hashed: number; known: number; stored: number }): boolean {
  return storedSince === undefined || hashed >= PRUNE_AFTER || (hashed > 0 && 4 * hashed >= hashed + known) || storedSince + stored >= PRUNE_AFTER;
}

/**
 * Records that every entry left in the cache at `dir`, just pruned by the build that started at `started` (as the
 * cache's file system stamps files: fileSystemNow), was checked by that build or made by it: entries last changed
 * before then need no checking again. With it, how many entries builds stored since (`storedSince`: none after a
 * prune; noteStoredSince adds to it). Written under a temporary name and renamed; a stamp that cannot be written costs
 * the next build time, never this one.
 */
export function writeCheckedStamp(dir: string, started: bigint, storedSince = 0): void {
  replaceCacheFile(join(dir, STAMP), `${STAMP_FORMAT}\n${started}\n${storedSince}\n`);
}

/**
 * Adds the entries a build stored without pruning (pruneDue) to the stamp's count; its moment stays the last prune's,
 * whose promise holds still: an entry changed since is checked by its hash. A stamp rewritten meanwhile by another
 * build's prune is replaced by the older moment, which only means more checking.
 */
export function noteStoredSince(dir: string, stamp: PageCacheStamp, stored: number): void {
  if (stored > 0) writeCheckedStamp(dir, stamp.checkedBefore, stamp.storedSince + stored);
}

/** The last prune's stamp (readStamp): its moment, and the entries builds stored since. */
export interface PageCacheStamp {
  checkedBefore: bigint;
  storedSince: number;
}

/**
 * A build's view of the cache at `dir` for code `code`: its settings (a build id of its own, and the moment of the
 * stamp it may use), with when it started (the `started` its prune is given) and the stamp (pageCacheStart). For the
 * record pages' cache and the caches on the same store that each build prunes (the search index's, the public index's).
 */
export function pageCacheForBuild(dir: string, code: string): { settings: PageCacheSettings; started?: bigint; stamp?: PageCacheStamp } {
  const { started, stamp } = pageCacheStart(dir);
  const settings: PageCacheSettings = { dir, code, build: randomUUID(), ...(stamp === undefined ? {} : { checkedBefore: stamp.checkedBefore }) };
  return { settings, ...(started === undefined ? {} : { started }), ...(stamp === undefined ? {} : { stamp }) };
}

/**
 * A build's start, as the cache's file system at `dir` stamps files (the `started` its prune is given), and the stamp
 * it may use (readStamp). Neither where no file can be made in the folder.
 */
export function pageCacheStart(dir: string): { started?: bigint; stamp?: PageCacheStamp } {
  const started = fileSystemNow(dir);
  if (started === undefined) return {};
  const stamp = readStamp(dir, started);
  return stamp === undefined ? { started } : { started, stamp };
}

/**
 * The stamp as a build that starts `now` (fileSystemNow of the cache's folder) may use it: the last prune's moment
 * (its `checkedBefore`) and the entries stored since; undefined (check every entry) when there is no stamp, it is not
 * one of ours, or its moment lies after now (the clock was set back since: a ctime is then no measure of before and
 * after).
 */
export function readStamp(dir: string, now: bigint): PageCacheStamp | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, STAMP), 'utf8');
  } catch {
    return undefined;
  }
  const m = /^(.*)\n(\d{1,24})\n(\d{1,9})\n$/.exec(text);
  if (m === null || m[1] !== STAMP_FORMAT) return undefined;
  const checkedBefore = BigInt(m[2]!);
  return checkedBefore <= now ? { checkedBefore, storedSince: Number(m[3]!) } : undefined;
}
