/**
 * The site's search index (src/core/search), written under /search-index/ when the record pages are done.
 *
 * The record-page threads make each record's search document (or take it from the page cache) and write each batch's
 * documents to a file of their own in a folder beside the staging folder, one JSON line a document
 * (writeSearchDocuments). They are not handed back to the main thread: at 100,000 records the records' text crossing
 * into Astro's thread while it rendered doubled the build's peak memory (3 GB against 1.5). When Astro is done the
 * index is built from those files (searchIndexFromFiles) and written; every file is written, then the folder is moved
 * into place: the output never holds half an index.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { archiveOrder } from '../../core/search/archive-order.ts';
import { SearchIndexBuilder, type IndexedDocument } from '../../core/search/build-index.ts';
import { SEARCH_INDEX_DIR } from '../../core/search/format.ts';

/** Writes one batch's search documents, each a JSON line (JSON.stringify of an IndexedDocument), replacing the file. */
export function writeSearchDocuments(file: string, lines: readonly string[]): void {
  writeFileSync(file, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}

/** The documents of one file written by writeSearchDocuments. */
export function* readSearchDocuments(file: string): Generator<IndexedDocument> {
  const text = readFileSync(file, 'utf8');
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf('\n', at);
    yield JSON.parse(text.slice(at, end)) as IndexedDocument;
    at = end + 1;
  }
}

/**
 * The index of these records, from the documents files in `dir` (each record's document in exactly one of them);
 * documents numbered in the archive's order of arrival.
 */
export function searchIndexFromFiles(records: readonly { id: string }[], dir: string): SearchIndexBuilder {
  const builder = new SearchIndexBuilder(archiveOrder(records, (r) => r.id).map((r) => r.id));
  for (const name of readdirSync(dir).sort()) for (const doc of readSearchDocuments(join(dir, name))) builder.add(doc);
  return builder;
}

/** Writes the index into `<out>/search-index/`; how many files. */
export function writeSearchIndex(builder: SearchIndexBuilder, out: string): number {
  const files = builder.files();
  const target = join(out, SEARCH_INDEX_DIR);
  const staging = `${target}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const made = new Set<string>();
  for (const [path, bytes] of files) {
    const file = join(staging, path);
    const dir = dirname(file);
    if (!made.has(dir)) mkdirSync(dir, { recursive: true }), made.add(dir);
    writeFileSync(file, bytes);
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return files.size;
}
