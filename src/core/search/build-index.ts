/**
 * Builds the search index's files (format.ts) from the archive's documents, in memory: path under the index's folder
 * → bytes. Pure but for gzip; the same documents give the same bytes.
 */
import { gzipSync } from 'node:zlib';
import {
  DOCUMENTS_PER_FILE,
  SEARCH_INDEX_FORMAT,
  documentsPath,
  filterPath,
  impactOf,
  termShardPath,
  type DocumentsFile,
  type FilterFile,
  type SearchDocument,
  type SearchDocumentInput,
  type SearchIndexManifest,
  type TermShardFile,
} from './format.ts';
import { SHARD_KEY_LENGTH, shardKeyOf, wordsOf } from './words.ts';

/**
 * A document with what the index keeps of its text: its length in words and each term's count, as pairs (JSON
 * without prototype surprises). Made where the document is made (the record-page threads) and cached with it, so
 * that building the index is merging, not cutting text.
 */
export interface IndexedDocument {
  document: SearchDocumentInput;
  length: number;
  terms: [term: string, count: number][];
}

export function indexedDocument(document: SearchDocumentInput): IndexedDocument {
  const words = wordsOf(document.text);
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return { document, length: words.length, terms: [...counts] };
}

// Fixed settings: the bytes depend on the input only (Node writes gzip's header time as 0). Level 6, zlib's default:
// level 9 took 2.5 × the time for files about 1 % smaller.
const gzip = (value: unknown): Buffer => gzipSync(JSON.stringify(value), { level: 6 });

/** The index of `documents`, numbered in the order given (the archive's order of arrival). */
export function buildSearchIndex(indexed: readonly IndexedDocument[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  // shard key → term → postings (documents ascending, as visited).
  const shards = new Map<string, Map<string, number[]>>();
  const last = new Map<string, number>();
  const filters = new Map<string, Map<string, number[]>>();
  indexed.forEach(({ document: doc, length, terms }, ordinal) => {
    for (const [term, tf] of terms) {
      const key = shardKeyOf(term);
      let shard = shards.get(key);
      if (!shard) shards.set(key, (shard = new Map()));
      let postings = shard.get(term);
      if (!postings) shard.set(term, (postings = []));
      const gap = ordinal - (last.get(term) ?? -1);
      last.set(term, ordinal);
      postings.push(gap * 16 + impactOf(tf, length));
    }
    for (const [facet, value] of Object.entries(doc.filters)) {
      let values = filters.get(facet);
      if (!values) filters.set(facet, (values = new Map()));
      let list = values.get(value);
      if (!list) values.set(value, (list = []));
      list.push(ordinal);
    }
  });
  for (const [key, shard] of shards) {
    const terms = [...shard.keys()].sort();
    files.set(termShardPath(key), gzip({ terms, postings: terms.map((t) => shard.get(t)!) } satisfies TermShardFile));
  }
  const manifestFilters: SearchIndexManifest['filters'] = {};
  for (const facet of [...filters.keys()].sort()) {
    const values = filters.get(facet)!;
    manifestFilters[facet] = [...values.keys()].sort().map((value) => {
      const ordinals = values.get(value)!;
      const file = filterPath(facet, value);
      files.set(file, gzip({ documents: ordinals.map((o, i) => o - (i === 0 ? -1 : ordinals[i - 1]!)) } satisfies FilterFile));
      return { value, documents: ordinals.length, file };
    });
  }
  for (let start = 0; start < indexed.length; start += DOCUMENTS_PER_FILE) {
    const docs: SearchDocument[] = indexed.slice(start, start + DOCUMENTS_PER_FILE).map(({ document: { page, id, title, kind, status, date, withdrawn, text } }) => ({ page, id, title, kind, status, date, withdrawn, text }));
    files.set(documentsPath(start), gzip({ documents: docs } satisfies DocumentsFile));
  }
  const manifest: SearchIndexManifest = {
    format: SEARCH_INDEX_FORMAT,
    documents: indexed.length,
    documentsPerFile: DOCUMENTS_PER_FILE,
    shardKeyLength: SHARD_KEY_LENGTH,
    filters: manifestFilters,
  };
  files.set('index.json', Buffer.from(`${JSON.stringify(manifest)}\n`));
  return files;
}
