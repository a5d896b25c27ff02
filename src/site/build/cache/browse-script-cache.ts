/**
 * The browse script's bundle (src/site/build/1-browse-script.ts), kept between builds: bundling it starts esbuild's
 * service, about 70 ms of the main thread before the build can read the archive, for bytes that change only with
 * the code. The page cache's content-addressed entries (page-cache.ts, kind "js") in a folder of their own, keyed by
 * the fingerprint of the code the pages are made from (code-fingerprint.ts, PAGE_CODE: the script's sources and the
 * lockfile that pins esbuild are in it) and checked by their hash before use; the folder holds the last build's bundle
 * only.
 */
import { randomUUID } from 'node:crypto';
import { PageCache, prunePageCache } from './page-cache.ts';

/** The bundle's bytes kept at `dir` for the code `code`, or `make()`'s, kept there for the next build. */
export function cachedBrowseScriptBytes(dir: string, code: string, make: () => Uint8Array): Uint8Array {
  const cache = new PageCache({ dir, code, build: randomUUID() });
  const hit = cache.find(code, 'js');
  if (hit) return hit.bytes;
  const bytes = make();
  const stored = cache.storeBytes(code, bytes, 'js'); // a cache that cannot be written costs the next build time only
  prunePageCache(dir, new Set(stored === undefined ? [] : [stored]));
  return bytes;
}
