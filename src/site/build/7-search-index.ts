/**
 * The site's search index (src/core/search), written under /search-index/ when the record pages are done: built from
 * the records' search documents, which the record-page threads make (or take from the page cache) with the pages and
 * hand over batch by batch. Every file is written, then the folder is moved into place: the output never holds half an
 * index.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { archiveOrder } from '../../core/search/archive-order.ts';
import { SearchIndexBuilder } from '../../core/search/build-index.ts';
import { SEARCH_INDEX_DIR } from '../../core/search/format.ts';

/** The builder of these records' index: documents numbered in the archive's order of arrival. */
export function searchIndexFor(records: readonly { id: string }[]): SearchIndexBuilder {
  return new SearchIndexBuilder(archiveOrder(records, (r) => r.id).map((r) => r.id));
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
