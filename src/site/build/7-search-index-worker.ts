/**
 * The search index's own thread (src/site/build/7-search-index.ts): folds in each batch's file of search documents as
 * the record-page threads finish it, while Astro renders, and writes the index when the build is done. Its own heap:
 * the records' text and the postings never enter Astro's thread.
 *
 * Messages in: { file } a documents file to fold in; { write: out } write the index into out and end.
 * Messages out: { written: files } when the index is written; { error: message } when anything failed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SearchIndexBuilder } from '../../core/search/build-index.ts';
import { readSearchDocuments, writeSearchIndex } from './7-search-index.ts';

export type IndexWorkerMessage = { file: string } | { write: string };
export type IndexWorkerReply = { written: number } | { error: string };

if (parentPort) {
  const port = parentPort;
  let builder: SearchIndexBuilder | undefined;
  let failed = false;
  port.on('message', (message: IndexWorkerMessage) => {
    if (failed) return;
    try {
      builder ??= new SearchIndexBuilder(workerData.order as string[]);
      if ('file' in message) {
        for (const doc of readSearchDocuments(message.file)) builder.add(doc);
      } else {
        port.postMessage({ written: writeSearchIndex(builder, message.write) } satisfies IndexWorkerReply);
        port.close();
      }
    } catch (err) {
      failed = true;
      port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies IndexWorkerReply);
      port.close();
    }
  });
}
