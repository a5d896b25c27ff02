/**
 * The site's search index built on the index's thread (7-search-index-worker.ts), segment by segment
 * (src/core/search/segments.ts), from the batches of search documents the record-page threads write.
 *
 * A batch's file has one line per record of the batch, in the batch's order: the document's JSON line, or, for a
 * document the page cache holds, `@` and the cache entry's name, whose SHA-256 part is the hash of that very line (as
 * the page's thread found it listed, not looked at). Each document is named by that hash. When
 * every document of a segment is in, the segment's key (its documents' hashes, the code, the layout: segmentKey) finds
 * its files in the cache, and nothing of it is read or made; else its documents are read (the lines again, from the
 * batch files or the page cache) and its files are made, and kept for the next build. So a build after an append reads
 * and folds in only the last segment's documents, and one with nothing changed none at all. An entry read then must
 * still hash to its name; one that does not (removed then, so that the next build makes it again), or that is gone,
 * is asked for (SegmentedSearchIndexOptions.ask), and its segment made once it is given (give).
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../../core/crypto/sha256.ts';
import { gzipJson, manifestBytes, SegmentBuilder, type IndexedDocument } from '../../core/search/build-index.ts';
import { DEFAULT_LAYOUT, SEARCH_INDEX_DIR, type SearchBuildLayout, type SearchSegment } from '../../core/search/format.ts';
import { segmentIndexOf, segmentsOf, type SegmentRange } from '../../core/search/segments.ts';
import { linkIfChanged, writeIfChanged } from '../../core/util/update-in-place.ts';
import { SEARCH_DOCUMENT_REFERENCE } from './7-search-index.ts';
import { segmentKey, type CachedSegment, type SearchIndexCache } from './cache/search-index-cache.ts';

export interface SearchIndexWritten {
  /** The index's files, paths from the site's folder. */
  files: string[];
  /** How many of them had to be written (the others held their bytes already). */
  written: number;
  /** How many came from the cache. */
  reused: number;
  /** Segments taken whole from the cache, and segments made. */
  segmentsKept: number;
  segmentsMade: number;
}

export interface SegmentedSearchIndexOptions {
  /** The cache of segments and compressed files; without it every segment is made. */
  cache?: SearchIndexCache;
  /**
   * The site's folder, when it is known from the start (the build's, updated in place): each segment's files are put
   * there as soon as the segment is done, and write() has only the index's manifest left to write. At 100,000 records
   * putting the 14,000 files of the segments taken from the cache was 0.15–0.4 s at the build's end, after the pages.
   */
  out?: string;
  /** The fingerprint of the code that makes the index (in each segment's key). */
  code?: string;
  /** The page cache's folder, where a batch's `@` lines point (relative names). */
  pageCacheDir?: string;
  /**
   * Told the records whose documents the page cache was to give and cannot, when their segment is to be made: the
   * segment waits until they are given (give). Without it, such a reference fails the index.
   */
  ask?: (ids: string[]) => void;
  layout?: SearchBuildLayout;
}

/** A segment made in this build without a cache to keep it: its files' bytes, held until they are written. */
interface MadeSegment {
  segment: SearchSegment;
  made: [path: string, bytes: Buffer][];
}

const REFERENCE = SEARCH_DOCUMENT_REFERENCE.charCodeAt(0);
const CACHE_ENTRY = /^[0-9a-f]{2}\/[0-9a-f]{64}\.([0-9a-f]{64})\.json$/;

/** The SHA-256 (hex) that a reference line's entry name gives for its document's line. */
function referencedHash(entry: string): string {
  const sha = CACHE_ENTRY.exec(entry)?.[1];
  if (sha === undefined) throw new Error(`search index: "${entry}" names no search document of the page cache`);
  return sha;
}

/** Why a referenced document could not be read (readLine). */
interface Unreadable {
  unreadable: string;
}

/**
 * The document of a batch's line (bytes start … end of `batch`): parsed, or read from the page cache entry it names,
 * which must still hash to the SHA-256 in its name; or why it cannot be (the entry gone, or no longer its line: then
 * removed, so that the next build's page thread makes it again). `id` names it in errors.
 */
function readLine(batch: Buffer, start: number, end: number, id: string, pageCacheDir: string | undefined): IndexedDocument | Unreadable {
  if (batch[start] !== REFERENCE) return JSON.parse(batch.toString('utf8', start, end)) as IndexedDocument;
  const entry = batch.toString('utf8', start + 1, end);
  const sha = referencedHash(entry);
  if (pageCacheDir === undefined) throw new Error(`search index: ${id}'s document is in a page cache this build was not told of`);
  let line: Buffer;
  try {
    line = readFileSync(join(pageCacheDir, entry));
  } catch {
    return { unreadable: `search index: ${id}'s search document (${entry}) is not in the page cache (another build pruned it?); build again` };
  }
  if (sha256Hex(line) !== sha) {
    rmSync(join(pageCacheDir, entry), { force: true });
    return { unreadable: `search index: ${id}'s search document (${entry}) no longer holds its line (removed from the cache); build again` };
  }
  return JSON.parse(line.toString('utf8')) as IndexedDocument;
}

function documentOfLine(batch: Buffer, start: number, end: number, id: string, pageCacheDir: string | undefined): IndexedDocument {
  const read = readLine(batch, start, end, id, pageCacheDir);
  if ('unreadable' in read) throw new Error(read.unreadable);
  return read;
}

/** Every document of a batch's file, in order (references read from the page cache at `pageCacheDir`). */
export function* readSearchDocuments(file: string, pageCacheDir?: string): Generator<IndexedDocument> {
  const bytes = readFileSync(file);
  for (let at = 0; at < bytes.length; ) {
    const end = bytes.indexOf(10, at);
    yield documentOfLine(bytes, at, end, `line at byte ${at} of ${file}`, pageCacheDir);
    at = end + 1;
  }
}

export class SegmentedSearchIndex {
  private readonly order: readonly string[];
  private readonly ordinalOf: Map<string, number>;
  private readonly ranges: SegmentRange[];
  private readonly waiting: Uint32Array;
  private readonly digests: Uint8Array;
  private readonly seen: Uint8Array;
  /** Where each document's line is: its batch file (by number) and the line's bytes in it. */
  private readonly lineFile: Int32Array;
  private readonly lineStart: Uint32Array;
  private readonly lineEnd: Uint32Array;
  private readonly batchFiles: string[] = [];
  private readonly segments: (CachedSegment | MadeSegment | undefined)[];
  /** Each segment's files once put in a site's folder (place), and into which one. */
  private readonly placed: ({ out: string; files: string[]; written: number } | undefined)[];
  private readonly options: SegmentedSearchIndexOptions;
  private readonly layout: SearchBuildLayout;
  private kept = 0;
  /** Documents given for references that could not be read (give), by number: their lines. */
  private readonly given = new Map<number, Buffer>();
  /** Documents asked for (options.ask), by number, and the segments waiting for them. */
  private readonly asked = new Set<number>();
  private readonly waitingForGiven = new Set<number>();

  /** `order`: every document's id, in the archive's order of arrival (the documents' numbers). */
  constructor(order: readonly string[], options: SegmentedSearchIndexOptions = {}) {
    this.order = order;
    this.options = options;
    this.layout = options.layout ?? DEFAULT_LAYOUT;
    this.ordinalOf = new Map(order.map((id, i) => [id, i]));
    if (this.ordinalOf.size !== order.length) throw new Error('search index: the same id twice in the archive order');
    this.ranges = segmentsOf(order.length, this.layout.segmentBlock);
    this.waiting = Uint32Array.from(this.ranges, (r) => r.count);
    this.segments = new Array(this.ranges.length);
    this.placed = new Array(this.ranges.length);
    const n = order.length;
    this.digests = new Uint8Array(32 * n);
    this.seen = new Uint8Array(n);
    this.lineFile = new Int32Array(n);
    this.lineStart = new Uint32Array(n);
    this.lineEnd = new Uint32Array(n);
  }

  /** A batch's file of search documents, one line per record of `ids`, in that order. */
  add(file: string, ids: readonly string[]): void {
    const bytes = readFileSync(file);
    const number = this.batchFiles.push(file) - 1;
    let at = 0;
    for (const id of ids) {
      // A line feed byte is never inside a UTF-8 sequence, and JSON.stringify escapes it in strings.
      const end = bytes.indexOf(10, at);
      if (end < 0) throw new Error(`search index: ${file} has fewer lines than its batch has records`);
      const ordinal = this.ordinalOf.get(id);
      if (ordinal === undefined) throw new Error(`search index: ${id} is not in the archive order`);
      if (this.seen[ordinal]) throw new Error(`search index: ${id} added twice`);
      this.seen[ordinal] = 1;
      this.digests.set(this.digestOf(bytes, at, end), 32 * ordinal);
      this.lineFile[ordinal] = number;
      this.lineStart[ordinal] = at;
      this.lineEnd[ordinal] = end;
      at = end + 1;
      const s = segmentIndexOf(this.ranges, ordinal);
      if (--this.waiting[s]! === 0) this.complete(s);
    }
    if (at !== bytes.length) throw new Error(`search index: ${file} has more lines than its batch has records`);
  }

  /** The SHA-256 of a document's JSON line: named by a reference, or hashed. */
  private digestOf(bytes: Buffer, start: number, end: number): Uint8Array {
    if (bytes[start] !== REFERENCE) return createHash('sha256').update(bytes.subarray(start, end)).digest();
    return Buffer.from(referencedHash(bytes.toString('utf8', start + 1, end)), 'hex');
  }

  /** A segment whose documents are all in: kept whole from the cache, or made from its documents (and kept). */
  private complete(s: number): void {
    const range = this.ranges[s]!;
    const { cache, code = '' } = this.options;
    const key = cache && segmentKey(code, this.layout, range, this.digests.subarray(32 * range.start, 32 * (range.start + range.count)));
    const cached = key === undefined ? undefined : cache!.segment(key);
    if (cached) {
      this.segments[s] = cached;
      this.kept++;
      if (this.options.out !== undefined) this.place(s, this.options.out);
      return;
    }
    const builder = new SegmentBuilder(range, cache?.compress ?? gzipJson, this.layout);
    // Each batch file read once, whatever order the archive's dates put the records of a batch in (the builder takes
    // documents in any order).
    const byFile = new Map<number, number[]>();
    for (let o = range.start; o < range.start + range.count; o++) {
      const list = byFile.get(this.lineFile[o]!);
      if (list) list.push(o);
      else byFile.set(this.lineFile[o]!, [o]);
    }
    const unreadable: number[] = [];
    for (const [file, ordinals] of byFile) {
      const bytes = readFileSync(this.batchFiles[file]!);
      for (const o of ordinals) {
        const doc = this.documentOf(o, bytes);
        if (doc === undefined) unreadable.push(o);
        else builder.add(o, doc);
      }
    }
    if (unreadable.length > 0) {
      // Made again once they are given: asked for once each.
      this.waitingForGiven.add(s);
      const ask = unreadable.filter((o) => !this.asked.has(o));
      for (const o of ask) this.asked.add(o);
      if (ask.length > 0) this.options.ask!(ask.map((o) => this.order[o]!));
      return;
    }
    const { segment, files } = builder.files();
    const made = [...files];
    this.segments[s] = (key !== undefined && cache!.storeSegment(key, segment, made)) || { segment, made };
    if (this.options.out !== undefined) this.place(s, this.options.out);
  }

  /** Puts segment `s`'s files into `<out>/search-index/` (once), each only when its bytes change. */
  private place(s: number, out: string): { out: string; files: string[]; written: number } {
    const known = this.placed[s];
    if (known?.out === out) return known;
    const done = this.segments[s]!;
    const files: string[] = [];
    let written = 0;
    if ('made' in done) {
      for (const [path, bytes] of done.made) {
        files.push(`${SEARCH_INDEX_DIR}/${path}`);
        if (writeIfChanged(join(out, SEARCH_INDEX_DIR, path), bytes)) written++;
      }
    } else {
      for (const { path, entry } of done.files) {
        files.push(`${SEARCH_INDEX_DIR}/${path}`);
        if (linkIfChanged(entry, join(out, SEARCH_INDEX_DIR, path)).changed) written++;
      }
    }
    return (this.placed[s] = { out, files, written });
  }

  /** A document for its segment: given, or its batch's line; undefined when it cannot be read and may be asked for. */
  private documentOf(ordinal: number, batch: Buffer): IndexedDocument | undefined {
    const given = this.given.get(ordinal);
    if (given !== undefined) return JSON.parse(given.toString('utf8')) as IndexedDocument;
    const read = readLine(batch, this.lineStart[ordinal]!, this.lineEnd[ordinal]!, this.order[ordinal]!, this.options.pageCacheDir);
    if (!('unreadable' in read)) return read;
    if (this.options.ask === undefined) throw new Error(read.unreadable);
    return undefined;
  }

  /** Whether a segment waits for documents asked for (options.ask) and not given yet. */
  get waitingForDocuments(): boolean {
    return this.waitingForGiven.size > 0;
  }

  /** The documents (JSON lines) of records asked for: each named by its own hash now; the segments waiting are made. */
  give(ids: readonly string[], lines: readonly string[]): void {
    if (lines.length !== ids.length) throw new Error(`search index: given ${lines.length} documents for ${ids.length} records`);
    ids.forEach((id, i) => {
      const ordinal = this.ordinalOf.get(id);
      if (ordinal === undefined || !this.asked.has(ordinal)) throw new Error(`search index: given the document of ${id}, which was not asked for`);
      const line = Buffer.from(lines[i]!, 'utf8');
      this.given.set(ordinal, line);
      this.digests.set(createHash('sha256').update(line).digest(), 32 * ordinal);
    });
    for (const s of [...this.waitingForGiven]) {
      this.waitingForGiven.delete(s);
      this.complete(s);
    }
  }

  /**
   * Writes the index into `<out>/search-index/`, each file only when its bytes change (a kept file is a hard link to
   * its cache entry, so an unchanged one is known by its inode, not read). Every document must have been added.
   */
  write(out: string): SearchIndexWritten {
    const missing = this.seen.indexOf(0);
    if (missing >= 0) throw new Error(`search index: document ${this.order[missing]} was never added`);
    if (this.waitingForDocuments) throw new Error('search index: documents asked for were never given');
    const files: string[] = [];
    let written = 0;
    const parts: SearchSegment[] = [];
    for (const [s, done] of (this.segments as (CachedSegment | MadeSegment)[]).entries()) {
      parts.push(done.segment);
      const placed = this.place(s, out);
      files.push(...placed.files);
      written += placed.written;
    }
    files.push(`${SEARCH_INDEX_DIR}/index.json`);
    if (writeIfChanged(join(out, SEARCH_INDEX_DIR, 'index.json'), manifestBytes(this.order.length, this.layout, parts))) written++;
    this.options.cache?.prune();
    const reused = this.options.cache?.reused() ?? 0;
    return { files, written, reused, segmentsKept: this.kept, segmentsMade: this.segments.length - this.kept };
  }
}
