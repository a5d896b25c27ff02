/**
 * The search index's files, kept between builds:
 *
 * - **Compressed files by their content**: a file whose JSON text is unchanged takes its bytes from here instead of
 *   being compressed again (an entry is keyed by the text and gzip's settings).
 * - **Whole segments** (src/core/search/segments.ts). A segment's files are a function of its documents and the code
 *   that builds them, so a segment is kept under a key over both (segmentKey): its entry in index.json and its files,
 *   each named by its path and the key of its compressed content above. A build whose segment has that key takes its
 *   files as they are, and neither reads its documents nor makes its files: an append at 100,000 records makes a last
 *   segment of at most 1,024 documents, not the whole index (about 9 s of the index's thread, and the second core's
 *   time, before). A segment made again (a record in it changed) still takes every unchanged file's bytes from here.
 *
 * The same content-addressed entries as the page cache (page-cache.ts: kinds "json" for a segment's list, "gz" for a
 * file), in a folder of their own under the build cache (`search-index/`). Every entry is checked by the SHA-256 in
 * its name before use, or known unchanged by its change time since the last build checked it (the page cache's
 * stamp); a damaged one is never used. After a build the folder holds exactly that build's entries.
 */
import { join } from 'node:path';
import { sha256Hex } from '../../../core/crypto/sha256.ts';
import { GZIP_LEVEL, gzipJson, type Compress } from '../../../core/search/build-index.ts';
import { SEARCH_INDEX_FORMAT, type SearchBuildLayout, type SearchSegment } from '../../../core/search/format.ts';
import type { SegmentRange } from '../../../core/search/segments.ts';
import { PageCache, pageCacheForBuild, prunePageCache } from './page-cache.ts';

/** A kept segment: its entry in index.json, and its files (paths under the index folder) with their entries' paths. */
export interface CachedSegment {
  segment: SearchSegment;
  files: { path: string; entry: string }[];
}

export interface SearchIndexCache {
  compress: Compress;
  /** The kept segment for `key`, when it and every file of it are there and whole. */
  segment(key: string): CachedSegment | undefined;
  /**
   * Keeps a segment just made, whose files' bytes compress() gave (and stored); the kept form, or undefined when the
   * cache cannot be written.
   */
  storeSegment(key: string, segment: SearchSegment, files: readonly [path: string, bytes: Buffer][]): CachedSegment | undefined;
  /** How many files came from the cache (whole segments' and compressed files'). */
  reused(): number;
  /** Removes the entries this build did not use, and stamps the rest as checked. */
  prune(): void;
}

/** The key of a segment: its documents (each named by the SHA-256 of its JSON line), the code and the layout. */
export function segmentKey(code: string, layout: SearchBuildLayout, { start, count }: SegmentRange, digests: Uint8Array): string {
  const head = JSON.stringify(['search segment', SEARCH_INDEX_FORMAT, code, layout, `gzip ${GZIP_LEVEL} zlib ${process.versions.zlib}`, start, count]);
  return sha256Hex(Buffer.concat([Buffer.from(`${head}\n`), digests]));
}

/** A kept segment's list: its entry in index.json, and each file's path with the key of its compressed content. */
interface SegmentList {
  segment: SearchSegment;
  files: [path: string, content: string][];
}

/** The cache at `dir` (created as needed; a cache that cannot be written only costs time). */
export function searchIndexCache(dir: string): SearchIndexCache {
  const { settings: cacheSettings, started } = pageCacheForBuild(dir, '');
  const cache = new PageCache(cacheSettings);
  const settings = `gzip ${GZIP_LEVEL} zlib ${process.versions.zlib}\n`;
  const used = new Set<string>();
  // The entry (its name: "<kk>/<content key>.<sha256>.gz") of each buffer compress() handed out, for storeSegment.
  const entryOf = new WeakMap<Buffer, string>();
  let reused = 0;
  return {
    compress(json) {
      const key = sha256Hex(settings + json);
      const hit = cache.find(key, 'gz');
      if (hit) {
        used.add(hit.name);
        entryOf.set(hit.bytes, hit.name);
        reused++;
        return hit.bytes;
      }
      const bytes = gzipJson(json);
      const stored = cache.storeBytes(key, bytes, 'gz');
      if (stored !== undefined) {
        used.add(stored);
        entryOf.set(bytes, stored);
      }
      return bytes;
    },
    segment(key) {
      const list = cache.find(key, 'json');
      if (list === undefined) return undefined;
      let kept: SegmentList;
      try {
        kept = JSON.parse(list.bytes.toString('utf8')) as SegmentList;
      } catch {
        return undefined; // its hash matched, so it is whole: written by other code (the key holds the code's fingerprint)
      }
      const files: CachedSegment['files'] = [];
      const names = [list.name];
      for (const [path, content] of kept.files) {
        const hit = cache.locate(content, 'gz');
        if (hit === undefined) return undefined;
        names.push(hit.name);
        files.push({ path, entry: join(dir, hit.name) });
      }
      for (const name of names) used.add(name);
      reused += files.length;
      return { segment: kept.segment, files };
    },
    storeSegment(key, segment, made) {
      const files: CachedSegment['files'] = [];
      const listed: SegmentList['files'] = [];
      for (const [path, bytes] of made) {
        const name = entryOf.get(bytes);
        if (name === undefined) return undefined; // not stored (the cache could not be written)
        files.push({ path, entry: join(dir, name) });
        listed.push([path, name.slice(3, 3 + 64)]);
      }
      const list = cache.storeBytes(key, JSON.stringify({ segment, files: listed } satisfies SegmentList), 'json');
      if (list === undefined) return undefined;
      used.add(list);
      return { segment, files };
    },
    reused: () => reused,
    prune: () => void prunePageCache(dir, used, started),
  };
}
