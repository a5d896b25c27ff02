/**
 * The pages and documents made from the whole archive (src/site/render/archive-pages.ts: home, facet and guardian
 * pages, the public index, feeds, sitemaps, llms.txt), written into the site's folder on the build's main thread,
 * each only when its bytes change (src/core/util/update-in-place.ts), one at a time so that the large ones (the
 * index's shards) are not all held at once. Between pages, in slices of its time (src/core/util/time-slices.ts), it
 * lets the thread's other work run: the page threads get their next batches from this thread.
 */
import { join } from 'node:path';
import { siteConfig } from '../../core/config.ts';
import { indexShardBytes, type KeptShards } from '../../core/publish/public-index.ts';
import { runInSlices } from '../../core/util/time-slices.ts';
import { writeIfChanged } from '../../core/util/update-in-place.ts';
import { archivePagesInSlices } from '../render/archive-pages.ts';
import { frameOf, type FrameSettings } from '../render/page-frame.ts';
import type { SiteRecord } from './2-read-archive.ts';

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
        if (writeIfChanged(join(dir, page.path), page.make())) changed++;
        yield;
      }
    })(),
  );
  return { files, changed };
}
