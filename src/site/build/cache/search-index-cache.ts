/**
 * The search index's compressed files, kept between builds: an append changes about 5 % of the index's files (the
 * last documents file, the terms files of the new record's words, its filters' files), but every file was gzipped
 * again on every build, about 9 s of the index thread at 100,000 records. A file whose JSON text is unchanged takes
 * its bytes from here instead.
 *
 * The same content-addressed entries as the page cache (page-cache.ts, kind "gz"), in a folder of their own under
 * the build cache (`search-index/`): an entry is named by the SHA-256 of the file's JSON text with the compression's
 * settings (the gzip level and zlib's version: the bytes a clean build would make) and by the SHA-256 of its bytes,
 * which are checked before use. After a build the folder holds exactly that build's files.
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../../core/crypto/sha256.ts';
import { GZIP_LEVEL, gzipJson, type Compress } from '../../../core/search/build-index.ts';
import { PageCache, prunePageCache } from './page-cache.ts';

export interface SearchIndexCache {
  compress: Compress;
  /** How many files came from the cache. */
  reused(): number;
  /** Removes the entries this build did not use. */
  prune(): void;
}

/** Compression through the cache at `dir` (created as needed; a cache that cannot be written only costs time). */
export function searchIndexCache(dir: string): SearchIndexCache {
  const cache = new PageCache({ dir, code: '', build: randomUUID() });
  const settings = `gzip ${GZIP_LEVEL} zlib ${process.versions.zlib}\n`;
  const used = new Set<string>();
  let reused = 0;
  return {
    compress(json) {
      const key = sha256Hex(settings + json);
      const hit = cache.find(key, 'gz');
      if (hit) {
        used.add(hit.name);
        reused++;
        return hit.bytes;
      }
      const bytes = gzipJson(json);
      const stored = cache.storeBytes(key, bytes, 'gz');
      if (stored !== undefined) used.add(stored);
      return bytes;
    },
    reused: () => reused,
    prune: () => void prunePageCache(dir, used),
  };
}
