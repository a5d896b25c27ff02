/**
 * The search index's own thread (src/site/build/7-search-index.ts): folds in each batch's file of search documents as
 * the record-page threads finish it, while Astro renders, and writes the index when the build is done. Its own heap:
 * the records' text and the postings never enter Astro's thread.
 *
 * Messages in: { file } a documents file to fold in; { write: out } write the index into out and end.
 * Messages out: { files, written, reused } when the index is written (its files, how many had to be written, how many
 * came from the cache of compressed files); { error: message } when anything failed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SearchIndexBuilder } from '../../core/search/build-index.ts';
import { readSearchDocuments, writeSearchIndex, type SearchIndexWritten } from './7-search-index.ts';
import { searchIndexCache } from './cache/search-index-cache.ts';

export type IndexWorkerMessage = { file: string } | { write: string };
export type IndexWorkerReply = SearchIndexWritten | { error: string };

if (parentPort) {
  const port = parentPort;
  let builder: SearchIndexBuilder | undefined;
  let failed = false;
  // The compressed files' cache (src/site/build/cache/search-index-cache.ts), unless the build runs without one.
  const cache = typeof workerData.cacheDir === 'string' ? searchIndexCache(workerData.cacheDir) : undefined;
  port.on('message', (message: IndexWorkerMessage) => {
    if (failed) return;
    try {
      builder ??= new SearchIndexBuilder(workerData.order as string[], cache?.compress);
      if ('file' in message) {
        for (const doc of readSearchDocuments(message.file)) builder.add(doc);
      } else {
        const { files, written } = writeSearchIndex(builder, message.write);
        cache?.prune();
        port.postMessage({ files, written, reused: cache?.reused() ?? 0 } satisfies IndexWorkerReply);
        port.close();
      }
    } catch (err) {
      failed = true;
      port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies IndexWorkerReply);
      port.close();
    }
  });
}
