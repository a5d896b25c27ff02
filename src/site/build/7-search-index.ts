/**
 * The site's search index (src/core/search), written under /search-index/ when the record pages are done.
 *
 * The record-page threads make each record's search document (or take it from the page cache) and write each batch's
 * documents to a file of their own in a folder beside the staging folder, one JSON line a document
 * (writeSearchDocuments). They are not handed back to the main thread: at 100,000 records the records' text crossing
 * into Astro's thread while it rendered doubled the build's peak memory (3 GB against 1.5). The index has a thread of
 * its own (startSearchIndex, 7-search-index-worker.ts), told the name of each file as its batch is done: it folds
 * the documents in while Astro renders, and when the build is done writes the index into the site's folder (a
 * staging folder, never the live site: scripts/build.ts), each file only when its bytes change
 * (src/core/util/update-in-place.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { IndexWorkerMessage, IndexWorkerReply } from './7-search-index-worker.ts';
import { join } from 'node:path';
import { writeIfChanged } from '../../core/util/update-in-place.ts';
import { archiveOrder } from '../../core/search/archive-order.ts';
import type { IndexedDocument, SearchIndexBuilder } from '../../core/search/build-index.ts';
import { SEARCH_INDEX_DIR } from '../../core/search/format.ts';

/**
 * Writes one batch's search documents, each a JSON line (JSON.stringify of an IndexedDocument), replacing the file.
 * A line from the page cache comes as its bytes and is written as they are (no decoding and encoding again).
 */
export function writeSearchDocuments(file: string, lines: readonly (string | Uint8Array)[]): void {
  const parts: Uint8Array[] = [];
  for (const line of lines) parts.push(typeof line === 'string' ? Buffer.from(line) : line, NEWLINE);
  writeFileSync(file, Buffer.concat(parts));
}

const NEWLINE = Buffer.from('\n');

/** The documents of one file written by writeSearchDocuments. */
export function* readSearchDocuments(file: string): Generator<IndexedDocument> {
  const bytes = readFileSync(file);
  // A line feed byte is never inside a UTF-8 sequence, and JSON.stringify escapes it in strings.
  for (let at = 0; at < bytes.length; ) {
    const end = bytes.indexOf(10, at);
    yield JSON.parse(bytes.toString('utf8', at, end)) as IndexedDocument;
    at = end + 1;
  }
}

export interface SearchIndexWritten {
  files: string[];
  written: number;
  reused: number;
}

export interface SearchIndexRun {
  /** A documents file whose batch is done, to fold in. */
  add(file: string): void;
  /**
   * Writes the index into `<out>/search-index/` once every file is in: its files (paths from `out`), how many of them
   * had to be written (the others held their bytes already), how many came from the cache.
   */
  write(out: string): Promise<SearchIndexWritten>;
  /** Ends the thread without writing (a build that failed). */
  stop(): Promise<void>;
}

/**
 * Starts the index's thread for these records (documents numbered in the archive's order of arrival); with
 * `cacheDir`, compressed files whose content is unchanged come from there (src/site/build/cache/search-index-cache.ts).
 */
export function startSearchIndex(records: readonly { id: string }[], cacheDir?: string): SearchIndexRun {
  const order = archiveOrder(records, (r) => r.id).map((r) => r.id);
  const worker = new Worker(new URL('./7-search-index-worker.ts', import.meta.url), { workerData: { order, cacheDir } });
  // An error is kept for write(); the thread stops folding in after the first.
  const reply = new Promise<SearchIndexWritten>((resolve, reject) => {
    worker.on('message', (m: IndexWorkerReply) => ('error' in m ? reject(new Error(`search index: ${m.error}`)) : resolve(m)));
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`search index: its thread ended (exit code ${code}) before writing the index`)));
  });
  reply.catch(() => undefined);
  return {
    add: (file) => worker.postMessage({ file } satisfies IndexWorkerMessage),
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

/** Writes the index into `<out>/search-index/`, each file only if its bytes change: its files (paths from `out`), how many written. */
export function writeSearchIndex(builder: SearchIndexBuilder, out: string): { files: string[]; written: number } {
  const files: string[] = [];
  let written = 0;
  for (const [path, bytes] of builder.entries()) {
    const file = `${SEARCH_INDEX_DIR}/${path}`;
    files.push(file);
    if (writeIfChanged(join(out, file), bytes)) written++;
  }
  return { files, written };
}
