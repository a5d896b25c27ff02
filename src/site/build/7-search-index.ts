/**
 * The site's search index (src/core/search), written under /search-index/ when the record pages are done: built from
 * the records' search documents, which the record-page threads made (or took from the page cache) with the pages.
 * Every file is written, then the folder is moved into place: the output never holds half an index.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { archiveOrder } from '../../core/search/archive-order.ts';
import { buildSearchIndex, type IndexedDocument } from '../../core/search/build-index.ts';
import { SEARCH_INDEX_DIR } from '../../core/search/format.ts';

/** Writes the index of `documents` into `<out>/search-index/`; how many files. */
export function writeSearchIndex(documents: readonly IndexedDocument[], out: string): number {
  const files = buildSearchIndex(archiveOrder(documents, (d) => d.document.id));
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
