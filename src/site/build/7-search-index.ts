/**
 * The site's search index (src/core/search), written under /search-index/ when the record pages are done.
 *
 * The record-page threads make each record's search document (or find it in the page cache) and write each batch's
 * documents to a file of their own in a folder beside the staging folder, one line a document (writeSearchDocuments):
 * its JSON, or a reference to its page cache entry. They are not handed back to the main thread: at 100,000 records
 * the records' text crossing into Astro's thread while it rendered doubled the build's peak memory (3 GB against 1.5).
 * The index has a thread of its own (startSearchIndex, 7-search-index-worker.ts), told of each file as its batch is
 * done: it makes each segment of the index once its documents are in, or takes it whole from the cache
 * (7-search-segments.ts), while the pages are rendered, and when the build is done writes the index into the site's
 * folder (a staging folder, never the live site: scripts/build.ts), each file only when its bytes change
 * (src/core/util/update-in-place.ts).
 */
import { writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { IndexWorkerData, IndexWorkerMessage, IndexWorkerReply } from './7-search-index-worker.ts';
import type { SearchIndexWritten } from './7-search-segments.ts';
import { archiveOrder } from '../../core/search/archive-order.ts';

/** What starts a batch line that stands for a page cache entry instead of holding the document (never a JSON text's first character). */
export const SEARCH_DOCUMENT_REFERENCE = '@';

/** A batch line that stands for a page cache entry: its name (relative to the page cache's folder). */
export function searchDocumentReference(entry: string): string {
  return `${SEARCH_DOCUMENT_REFERENCE}${entry}`;
}

/**
 * Writes one batch's search documents, a line each (JSON.stringify of an IndexedDocument, or a page cache reference:
 * searchDocumentReference), replacing the file.
 */
export function writeSearchDocuments(file: string, lines: readonly string[]): void {
  writeFileSync(file, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}

export interface SearchIndexRun {
  /** A documents file whose batch is done, with its records' ids in the file's order. */
  add(file: string, ids: readonly string[]): void;
  /** Writes the index into `<out>/search-index/` once every file is in (SearchIndexWritten). */
  write(out: string): Promise<SearchIndexWritten>;
  /** Ends the thread without writing (a build that failed). */
  stop(): Promise<void>;
}

export interface SearchIndexSettings {
  /** The index's cache folder (segments and compressed files: src/site/build/cache/search-index-cache.ts). */
  cacheDir: string;
  /** The fingerprint of the site's code, in each segment's key. */
  code: string;
  /** The page cache's folder, where the batches' references point. */
  pageCacheDir: string;
}

/**
 * Starts the index's thread for these records (documents numbered in the archive's order of arrival); with a cache,
 * unchanged segments and compressed files come from there. Given the site's folder (`out`, the one write() will be
 * given), each segment's files are put there as soon as the segment is done. Given `documents`, the documents of
 * records that the page cache was to give and cannot after all (an entry gone or damaged) are made with it, on this
 * thread (the search documents' JSON lines, in the order of the ids); without it such a build fails.
 */
export function startSearchIndex(records: readonly { id: string }[], cache?: SearchIndexSettings, out?: string, documents?: (ids: readonly string[]) => string[]): SearchIndexRun {
  const order = archiveOrder(records, (r) => r.id).map((r) => r.id);
  const workerData: IndexWorkerData = { order, ...cache, ...(out === undefined ? {} : { out }), ...(documents ? { canAsk: true } : {}) };
  const worker = new Worker(new URL('./7-search-index-worker.ts', import.meta.url), { workerData });
  // An error is kept for write(); the thread stops taking files in after the first.
  const reply = new Promise<SearchIndexWritten>((resolve, reject) => {
    worker.on('message', (m: IndexWorkerReply) => {
      if ('error' in m) reject(new Error(m.error.startsWith('search index: ') ? m.error : `search index: ${m.error}`));
      else if ('ask' in m) {
        try {
          worker.postMessage({ given: { ids: m.ask, lines: documents!(m.ask) } } satisfies IndexWorkerMessage);
        } catch (err) {
          reject(err);
        }
      } else resolve(m);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`search index: its thread ended (exit code ${code}) before writing the index`)));
  });
  reply.catch(() => undefined);
  return {
    add: (file, ids) => worker.postMessage({ file, ids } satisfies IndexWorkerMessage),
    async write(out) {
      worker.postMessage({ write: out } satisfies IndexWorkerMessage);
      try {
        return await reply;
      } finally {
        await worker.terminate();
      }
    },
    async stop() {
      await worker.terminate();
    },
  };
}
