/**
 * The pages and documents made from the whole archive (src/site/render/archive-pages.ts: home, facet and guardian
 * pages, the public index, feeds, sitemaps, llms.txt), written into the site's folder on the build's main thread,
 * each only when its bytes change (src/core/util/update-in-place.ts), one at a time so that the large ones (the
 * index's shards) are not all held at once. Between pages, in slices of its time (src/core/util/time-slices.ts), it
 * lets the thread's other work run: the page threads get their next batches from this thread.
 */
import { join } from 'node:path';
import { siteConfig } from '../../core/config.ts';
import { indexShardBytes, type FileSource, type KeptShards } from '../../core/publish/public-index.ts';
import { runInSlices } from '../../core/util/time-slices.ts';
import { linkIfChanged, writeIfChanged } from '../../core/util/update-in-place.ts';
import { archivePagesInSlices } from '../render/archive-pages.ts';
import { frameOf, type FrameSettings } from '../render/page-frame.ts';
import type { SiteRecord } from './2-read-archive.ts';

/**
 * Links a page's source (a kept shard's cache entry, checked) at `file`, left as it is when it is that file already;
 * whether it changed.
 */
function placeSource({ file, identity }: FileSource, at: string): boolean {
  try {
    return linkIfChanged(file, at, identity === undefined ? {} : { identity }).changed;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new Error(`${file} left the build cache during the build (another build pruned it?); build again`);
  }
}

/**
 * Writes them under `dir`: their paths from `dir`, and how many had to be written. `keptShards`: the public index's
 * shards of an earlier build (src/site/build/cache/public-index-cache.ts), those of unchanged records taken as they are.
 */
export async function writeArchivePages(records: readonly SiteRecord[], dir: string, frame: FrameSettings, keptShards?: KeptShards): Promise<{ files: string[]; changed: number }> {
  const files: string[] = [];
  let changed = 0;
  // Listing the pages makes the public index, in slices, and the sitemaps.
  const pages = await archivePagesInSlices({ records, frame: frameOf(frame), config: siteConfig(), shardBytes: indexShardBytes(), ...(keptShards ? { keptShards } : {}) });
  await runInSlices(
    (function* () {
      for (const page of pages) {
        files.push(page.path);
        if (page.source ? placeSource(page.source, join(dir, page.path)) : writeIfChanged(join(dir, page.path), page.make())) changed++;
        yield;
      }
    })(),
  );
  return { files, changed };
}
