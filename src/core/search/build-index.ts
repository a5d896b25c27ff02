/**
 * Builds the search index's files (format.ts) from the archive's documents, in memory: path under the index's folder
 * → bytes. Pure but for gzip; the same documents give the same bytes.
 */
import { gzipSync } from 'node:zlib';
import {
  DEFAULT_LAYOUT,
  layoutProblem,
  SEARCH_INDEX_FORMAT,
  documentsPath,
  shardKeyOf,
  filterGaps,
  filterPath,
  impactOf,
  termShardPath,
  type DocumentsFile,
  type FilterFile,
  type SearchBuildLayout,
  type SearchDocument,
  type SearchDocumentInput,
  type SearchIndexLayout,
  type SearchIndexManifest,
  type SearchSegment,
  type TermShardFile,
} from './format.ts';
import { segmentIndexOf, segmentsOf, type SegmentRange } from './segments.ts';
import { TermPostings } from './term-postings.ts';
import { wordsOf } from './words.ts';

/**
 * A document with what the index keeps of its text: its length in words and each term's count. Made where the
 * document is made (the record-page threads) and cached with it, so that building the index is merging, not cutting
 * text. The counts travel as one string, "term TAB count" lines (termCounts reads it): a thread hands a hundred
 * thousand of these to the main thread, and one string each is cheap to pass where a pair per term was not (at
 * 100,000 records the pairs cost the main thread about 20 s of copying and collecting while Astro rendered).
 */
export interface IndexedDocument {
  document: SearchDocumentInput;
  length: number;
  terms: string;
}

export function indexedDocument(document: SearchDocumentInput): IndexedDocument {
  const words = wordsOf(document.text);
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  let terms = '';
  // A term never holds a tab or a line break (words.ts: letters, marks and digits only).
  for (const [term, count] of counts) terms += `${term}\t${count}\n`;
  return { document, length: words.length, terms };
}

/** The (term, count) pairs of an indexed document. */
export function* termCounts({ terms }: IndexedDocument): Generator<[term: string, count: number]> {
  let at = 0;
  while (at < terms.length) {
    const tab = terms.indexOf('\t', at);
    const end = terms.indexOf('\n', tab);
    yield [terms.slice(at, tab), Number(terms.slice(tab + 1, end))];
    at = end + 1;
  }
}

/** Makes a file's bytes from its JSON text. */
export type Compress = (json: string) => Buffer;

// Fixed settings: the bytes depend on the input only (Node writes gzip's header time as 0). Level 6, zlib's default:
// level 9 took 2.5 × the time for files 1.4 % smaller (2.87 against 2.91 MB at 9,899 records).
export const GZIP_LEVEL = 6;
export const gzipJson: Compress = (json) => gzipSync(json, { level: GZIP_LEVEL });

/** One segment's files (path under the index folder → bytes, made as asked for) and what index.json says of it. */
export interface SegmentFiles {
  segment: SearchSegment;
  files: Iterable<[path: string, bytes: Buffer]>;
}

/**
 * Builds one segment of the index (segments.ts): documents start … start + count − 1, handed over in any order with
 * their numbers. What is kept per document is folded into the terms' postings at once (term-postings.ts: 8 bytes a
 * posting), not every document's list of terms; and a documents file is made as soon as its documents are all in,
 * so the records' text is not held to the end (pages are rendered in batches of neighbours, so files complete as the
 * build goes).
 */
export class SegmentBuilder {
  readonly start: number;
  readonly count: number;
  private readonly documents: (SearchDocument | undefined)[];
  /** Whether each document was added. */
  private readonly added: Uint8Array;
  /** Documents still missing from each documents file. */
  private readonly missing: Uint32Array;
  /** Documents files made so far: path → bytes. */
  private readonly documentFiles = new Map<string, Buffer>();
  /** term → postings as ordinal × 16 + impact, in the order added (sorted when the files are made). */
  private readonly postings = new TermPostings();
  private readonly filters = new Map<string, Map<string, number[]>>();
  /** Whether the files were made (files() takes the postings out, so only once). */
  private made = false;
  private readonly compress: Compress;
  private readonly layout: SearchIndexLayout;

  constructor({ start, count }: SegmentRange, compress: Compress = gzipJson, layout: SearchIndexLayout = DEFAULT_LAYOUT) {
    this.compress = compress;
    this.layout = layout;
    const perFile = layout.documentsPerFile;
    if (start % perFile !== 0) throw new Error(`search index: a segment must start at a multiple of ${perFile}, not ${start}`);
    this.start = start;
    this.count = count;
    this.documents = new Array(count);
    this.added = new Uint8Array(count);
    this.missing = new Uint32Array(Math.ceil(count / perFile)).fill(perFile);
    if (count % perFile !== 0) this.missing[this.missing.length - 1] = count % perFile;
  }

  private gzip(value: unknown): Buffer {
    return this.compress(JSON.stringify(value));
  }

  /** Adds the document numbered `ordinal` (the index's number, within this segment); its id names it in errors. */
  add(ordinal: number, indexed: IndexedDocument): void {
    const { document: doc, length } = indexed;
    const local = ordinal - this.start;
    if (!(local >= 0 && local < this.count)) throw new Error(`search index: document ${ordinal} is not in the segment from ${this.start}`);
    if (this.added[local]) throw new Error(`search index: ${doc.id} added twice`);
    if (this.made) throw new Error('search index: its files were made already (the postings were taken out)');
    this.added[local] = 1;
    const { page, id, title, kind, status, date, withdrawn, text } = doc;
    this.documents[local] = { page, id, title, kind, status, date, withdrawn, text };
    const perFile = this.layout.documentsPerFile;
    const file = Math.floor(local / perFile);
    if (--this.missing[file]! === 0) {
      const from = file * perFile;
      const docs = this.documents.slice(from, from + perFile) as SearchDocument[];
      this.documentFiles.set(documentsPath(this.start + from, this.layout), this.gzip({ documents: docs } satisfies DocumentsFile));
      this.documents.fill(undefined, from, from + perFile);
    }
    for (const [term, tf] of termCounts(indexed)) this.postings.add(term, ordinal * 16 + impactOf(tf, length));
    for (const [facet, value] of Object.entries(doc.filters)) {
      let values = this.filters.get(facet);
      if (!values) this.filters.set(facet, (values = new Map()));
      let list = values.get(value);
      if (!list) values.set(value, (list = []));
      list.push(ordinal);
    }
  }

  /** The local number of the first document not added, or −1. */
  firstMissing(): number {
    return this.added.indexOf(0);
  }

  /**
   * The segment's files, each made as it is asked for (a caller that writes each and lets it go never holds the whole
   * compressed segment), and its entry in index.json. Every document must have been added. Once: making them takes
   * the postings out (TermPostings.takeSortedByTerm).
   */
  files(): SegmentFiles {
    const missing = this.firstMissing();
    if (missing >= 0) throw new Error(`search index: document ${this.start + missing} was never added`);
    if (this.made) throw new Error('search index: its files were made already (the postings were taken out)');
    this.made = true;
    const filters: SearchSegment['filters'] = {};
    const filterFiles: [facet: string, value: string, ordinals: number[]][] = [];
    for (const facet of [...this.filters.keys()].sort()) {
      const values = this.filters.get(facet)!;
      filters[facet] = [...values.keys()].sort().map((value) => {
        const ordinals = values.get(value)!.sort((a, b) => a - b);
        filterFiles.push([facet, value, ordinals]);
        return { value, documents: ordinals.length };
      });
    }
    return { segment: { start: this.start, count: this.count, filters }, files: this.entries(filterFiles) };
  }

  private *entries(filterFiles: readonly [string, string, number[]][]): Generator<[path: string, bytes: Buffer]> {
    // shard key → its terms (by number); each term's postings sorted by document and gap-encoded.
    const names = this.postings.terms();
    const sorted = this.postings.takeSortedByTerm();
    const shards = new Map<string, number[]>();
    names.forEach((term, id) => {
      const key = shardKeyOf(term, this.layout);
      const ids = shards.get(key);
      if (ids) ids.push(id);
      else shards.set(key, [id]);
    });
    for (const [key, ids] of shards) {
      ids.sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
      const terms = ids.map((id) => names[id]!);
      const postings = ids.map((id) => gaps(sorted[id]!));
      yield [termShardPath(this.start, key), this.gzip({ terms, postings } satisfies TermShardFile)];
    }
    for (const [facet, value, ordinals] of filterFiles) {
      yield [filterPath(this.start, facet, value), this.gzip({ documents: filterGaps(ordinals) } satisfies FilterFile)];
    }
    const perFile = this.layout.documentsPerFile;
    for (let from = 0; from < this.count; from += perFile) {
      const path = documentsPath(this.start + from, this.layout);
      const bytes = this.documentFiles.get(path)!;
      this.documentFiles.delete(path); // let go once handed out, like the postings
      yield [path, bytes];
    }
  }
}

/** index.json's bytes for an index of `documents` documents in these segments (in order), cut by `layout`. */
export function manifestBytes(documents: number, layout: SearchIndexLayout, segments: readonly SearchSegment[]): Buffer {
  const totals = new Map<string, Map<string, number>>();
  for (const { filters } of segments) {
    for (const [facet, values] of Object.entries(filters)) {
      let t = totals.get(facet);
      if (!t) totals.set(facet, (t = new Map()));
      for (const { value, documents: n } of values) t.set(value, (t.get(value) ?? 0) + n);
    }
  }
  const filters: SearchIndexManifest['filters'] = {};
  for (const facet of [...totals.keys()].sort()) {
    const values = totals.get(facet)!;
    filters[facet] = [...values.keys()].sort().map((value) => ({ value, documents: values.get(value)! }));
  }
  const { documentsPerFile, shardKeyLength } = layout;
  const manifest: SearchIndexManifest = { format: SEARCH_INDEX_FORMAT, documents, documentsPerFile, shardKeyLength, filters, segments: [...segments] };
  return Buffer.from(`${JSON.stringify(manifest)}\n`);
}

/**
 * Builds the whole index from documents handed over in any order (the record-page threads finish batches out of
 * order), each numbered by its place in `order` (the archive's order of arrival), segment by segment (segments.ts).
 */
export class SearchIndexBuilder {
  private readonly ordinalOf: Map<string, number>;
  private readonly segments: SegmentBuilder[];
  private readonly layout: SearchBuildLayout;

  /**
   * `order`: the ids of every document the index will hold, in the archive's order of arrival. `compress`: gzipJson,
   * or one that returns the same bytes from a cache (the site build's, src/site/build/cache/search-index-cache.ts).
   * `layout`: how the files are cut (the site's defaults unless given; index.json says it, and readers follow it).
   */
  constructor(order: readonly string[], compress: Compress = gzipJson, layout: SearchBuildLayout = DEFAULT_LAYOUT) {
    const problem = layoutProblem(layout);
    if (problem) throw new Error(`search index: ${problem}`);
    this.layout = layout;
    this.ordinalOf = new Map(order.map((id, i) => [id, i]));
    if (this.ordinalOf.size !== order.length) throw new Error('search index: the same id twice in the archive order');
    this.segments = segmentsOf(order.length, layout.segmentBlock).map((range) => new SegmentBuilder(range, compress, layout));
  }

  add(indexed: IndexedDocument): void {
    const ordinal = this.ordinalOf.get(indexed.document.id);
    if (ordinal === undefined) throw new Error(`search index: ${indexed.document.id} is not in the archive order`);
    this.segments[segmentIndexOf(this.segments, ordinal)]!.add(ordinal, indexed);
  }

  /**
   * The index's files: path under the index folder → bytes. Every document of the order must have been added. Once:
   * making them takes the postings out (TermPostings.takeSortedByTerm).
   */
  files(): Map<string, Buffer> {
    return new Map(this.entries());
  }

  /**
   * The index's files one at a time, each made as it is asked for: a caller that writes each and lets it go never
   * holds the whole compressed index. Once, as files().
   */
  *entries(): Generator<[path: string, bytes: Buffer]> {
    for (const s of this.segments) {
      const missing = s.firstMissing();
      if (missing >= 0) throw new Error(`search index: document ${[...this.ordinalOf.keys()][s.start + missing]} was never added`);
    }
    const parts: SearchSegment[] = [];
    for (const s of this.segments) {
      const { segment, files } = s.files();
      parts.push(segment);
      yield* files;
    }
    yield ['index.json', manifestBytes(this.ordinalOf.size, this.layout, parts)];
  }
}

/** Sorted (ordinal × 16 + impact) values → the file's postings: (gap from the previous ordinal, from −1) × 16 + impact. */
function gaps(sorted: ArrayLike<number>): number[] {
  let previous = -1;
  return Array.from(sorted, (v) => {
    const ordinal = Math.floor(v / 16);
    const out = (ordinal - previous) * 16 + (v % 16);
    previous = ordinal;
    return out;
  });
}

/** The index of `indexed`, numbered in the order given (the archive's order of arrival). */
export function buildSearchIndex(indexed: readonly IndexedDocument[], layout: SearchBuildLayout = DEFAULT_LAYOUT): Map<string, Buffer> {
  const builder = new SearchIndexBuilder(indexed.map((d) => d.document.id), gzipJson, layout);
  for (const d of indexed) builder.add(d);
  return builder.files();
}
