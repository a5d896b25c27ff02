/**
 * The search index's own thread (src/site/build/7-search-index.ts): takes in each batch's file of search documents as
 * the record-page threads finish it, while the pages are rendered, and makes each segment of the index as soon as its
 * documents are in, unless the cache holds it (7-search-segments.ts); writes the index when the build is done. Its own
 * heap: the records' text and the postings never enter the main thread.
 *
 * Messages in: { file, ids } a documents file and its records, in order; { given: { ids, lines } } the documents it
 * asked for; { write: out } write the index into out and end (once no segment waits for documents asked for).
 * Messages out: { ask: ids } documents the page cache could not give after all (when started with `canAsk`);
 * SearchIndexWritten when the index is written; { error: message } when anything failed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SegmentedSearchIndex, type SearchIndexWritten } from './7-search-segments.ts';
import { searchIndexCache } from './cache/search-index-cache.ts';

export type IndexWorkerMessage = { file: string; ids: readonly string[] } | { given: { ids: readonly string[]; lines: readonly string[] } } | { write: string };
export type IndexWorkerReply = SearchIndexWritten | { ask: string[] } | { error: string };

/** What the thread is started with. */
export interface IndexWorkerData {
  order: readonly string[];
  /** The index's cache folder (segments and compressed files), unless the build runs without a cache. */
  cacheDir?: string;
  /** The fingerprint of the site's code, in each segment's key. */
  code?: string;
  /** The page cache's folder, where the record-page threads' references point. */
  pageCacheDir?: string;
  /** The site's folder, where each segment's files go as soon as it is done (SegmentedSearchIndexOptions.out). */
  out?: string;
  /** Whether the thread may ask for documents the page cache cannot give (SegmentedSearchIndexOptions.ask). */
  canAsk?: boolean;
}

if (parentPort) {
  const port = parentPort;
  const data = workerData as IndexWorkerData;
  let index: SegmentedSearchIndex | undefined;
  let failed = false;
  // Where to write the index once the documents asked for are given.
  let writeTo: string | undefined;
  const write = (out: string) => {
    port.postMessage(index!.write(out) satisfies IndexWorkerReply);
    port.close();
  };
  port.on('message', (message: IndexWorkerMessage) => {
    if (failed) return;
    try {
      index ??= new SegmentedSearchIndex(data.order, {
        ...(data.cacheDir === undefined ? {} : { cache: searchIndexCache(data.cacheDir) }),
        ...(data.code === undefined ? {} : { code: data.code }),
        ...(data.pageCacheDir === undefined ? {} : { pageCacheDir: data.pageCacheDir }),
        ...(data.out === undefined ? {} : { out: data.out }),
        ...(data.canAsk ? { ask: (ids: string[]) => port.postMessage({ ask: ids } satisfies IndexWorkerReply) } : {}),
      });
      if ('file' in message) {
        index.add(message.file, message.ids);
      } else if ('given' in message) {
        index.give(message.given.ids, message.given.lines);
        if (writeTo !== undefined && !index.waitingForDocuments) write(writeTo);
      } else if (index.waitingForDocuments) {
        writeTo = message.write;
      } else {
        write(message.write);
      }
    } catch (err) {
      failed = true;
      port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies IndexWorkerReply);
      port.close();
    }
  });
}
