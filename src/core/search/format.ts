/**
 * The archive's search index as files: what build-index.ts writes under the site's /search-index/ and
 * search-index.ts reads, in the browser (the search page) and in Node (the MCP server's search_records). One format,
 * one reader: the two find the same records for the same words.
 *
 * Why our own index and not Pagefind's (docs/performance.md, "Search index"): Pagefind loads per-page metadata for
 * every page before its first answer (711 KB at 100,000 records) and keeps word positions in its postings (1.7 MB
 * for two common words at 100,000), so a first search cannot stay near 100 KB; and it parses every built page again
 * (1.2 ms of CPU each). No other library reads a static index in pieces on demand. This index is built from the
 * records themselves, and a search fetches only:
 *
 * - `index.json`: the document count, how the files below are cut (documentsPerFile, shardKeyLength: a reader
 *   follows these, not its own defaults), the filters' values and the segments with the values each has (a few kB);
 * - for each query word, its shard in each segment, `segments/<start>/terms/<hex of the first letters>.json.gz`:
 *   every term that starts with those letters, with its postings in the segment's documents (which documents, and
 *   how much the term weighs in each);
 * - for each filter, its file in each segment that has the value, `segments/<start>/filters/<facet>/<value>.json.gz`:
 *   the segment's documents with that value;
 * - for each result shown, `documents/<n>.json.gz`: DOCUMENTS_PER_FILE documents (title, labels, text for excerpts).
 *
 * Documents are numbered in the archive's order of arrival (an appended record is the last), and the postings are cut
 * into segments of documents (segments.ts): a few large ones that an append leaves alone, and a small last one. So an
 * append changes the last documents file, the last segment's shards of the new record's words and its filters' files,
 * and index.json: a term's weight in a document depends on that document alone (REFERENCE_LENGTH), and a term's
 * rarity is computed when searching, from its number of documents in every segment. A segment's files are a function
 * of its documents alone, so a build can take an unchanged segment's files whole from its cache, without reading them.
 *
 * Files are gzip-compressed JSON (a reader checks for gzip's magic bytes, so a server that decodes them on the way
 * is fine too), written with fixed settings, so that a build is byte-identical for the same records.
 */

/** Bumped when the files change shape; a reader refuses another format. */
export const SEARCH_INDEX_FORMAT = 3;

/** The index's folder under the site. */
export const SEARCH_INDEX_DIR = 'search-index';

/** Documents per documents file: a page of ten results fetches at most ten small files. */
export const DOCUMENTS_PER_FILE = 8;

/** How many code points a term's shard key takes (the file a term is in: its first letters). */
export const SHARD_KEY_LENGTH = 3;

/**
 * How an index's files are cut, as its index.json says (documentsPerFile, shardKeyLength). The functions that name
 * a file take it with no default: a reader names files by the index's layout, never by this build's constants.
 */
export interface SearchIndexLayout {
  documentsPerFile: number;
  shardKeyLength: number;
}

/**
 * How a builder cuts an index: the layout a reader follows, and the size of the smallest segment (segments.ts; the
 * segments themselves are listed in index.json, so a reader needs no rule for them).
 */
export interface SearchBuildLayout extends SearchIndexLayout {
  segmentBlock: number;
}

/** Documents in the smallest whole segment (segments.ts): an append rewrites at most this many documents' postings. */
export const SEGMENT_BLOCK = 1024;

/** The site's layout: DOCUMENTS_PER_FILE, terms sharded by their first SHARD_KEY_LENGTH letters, SEGMENT_BLOCK. */
export const DEFAULT_LAYOUT: SearchBuildLayout = { documentsPerFile: DOCUMENTS_PER_FILE, shardKeyLength: SHARD_KEY_LENGTH, segmentBlock: SEGMENT_BLOCK };

/**
 * What is wrong with a layout, if anything: each number must be a whole number from 1 (a file of no documents or a
 * key of no letters makes no index, and a reader must not guess); a builder's segment block a multiple of
 * documentsPerFile, so that no documents file spans two segments.
 */
export function layoutProblem(layout: SearchIndexLayout | SearchBuildLayout): string | undefined {
  const names = 'segmentBlock' in layout ? (['documentsPerFile', 'shardKeyLength', 'segmentBlock'] as const) : (['documentsPerFile', 'shardKeyLength'] as const);
  // Read as unknown: an index.json's layout is whatever the file says, whatever its type claims.
  const fields: Readonly<Record<string, unknown>> = { ...layout };
  for (const name of names) {
    const n = fields[name];
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) return `${name} must be a whole number from 1, not ${JSON.stringify(n)}`;
  }
  if ('segmentBlock' in layout && layout.segmentBlock % layout.documentsPerFile !== 0) {
    return `segmentBlock must be a multiple of documentsPerFile (${layout.documentsPerFile}), not ${layout.segmentBlock}`;
  }
  return undefined;
}

/**
 * BM25's saturation and length normalisation (Robertson's usual values), against a fixed reference length instead
 * of the archive's average, so that adding a record never changes another record's weights.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const REFERENCE_LENGTH = 120;
/** A term's weight in a document, quantised to 1…IMPACT_LEVELS (4 bits beside the document gap). */
export const IMPACT_LEVELS = 15;

/** What a search shows of a record: the archive's labels, and the submitter's words (`title`, `text`). */
export interface SearchDocument {
  /** The record's page, relative to the site's base ("records/<id>/"). */
  page: string;
  id: string;
  /** The submitter's words: the agent's name, or the record kind's label when the record names none. */
  title: string;
  kind: string;
  status: string;
  date: string | null;
  withdrawn: boolean;
  /** The record's searchable text (understanding summary, verification claim, echo as plain text): the submitter's words. */
  text: string;
}

/** A document as the index is built from it: what is shown, and the filter values it is found under (facet → label). */
export interface SearchDocumentInput extends SearchDocument {
  filters: Readonly<Record<string, string>>;
}

/** A filter's value with its number of documents (in the index, or in one segment). */
export interface SearchFilterValue {
  value: string;
  documents: number;
}

/**
 * One segment of the index: documents start … start + count − 1, its folder `segments/<start>/`, and the filter
 * values some of its documents have (each has a file there).
 */
export interface SearchSegment {
  start: number;
  count: number;
  filters: Record<string, SearchFilterValue[]>;
}

/** index.json: the count, the layout its files are cut by, the filters' values (in the whole index) and the segments. */
export interface SearchIndexManifest extends SearchIndexLayout {
  format: number;
  documents: number;
  filters: Record<string, SearchFilterValue[]>;
  segments: SearchSegment[];
}

/**
 * A terms file: its terms in ascending (UTF-16) order, and each term's postings, each (gap to the previous document)
 * × 16 + impact, the first gap counted from −1 (document numbers are the index's, not the segment's). Parallel
 * arrays, not an object keyed by term: a reader finds a term or the range of terms a prefix starts by binary search,
 * without building a map of every term of the file.
 */
export interface TermShardFile {
  terms: string[];
  postings: number[][];
}

/** A filter's file: the documents with the value, as gaps (the first: its number + 1; filterGaps, filterDocuments). */
export interface FilterFile {
  documents: number[];
}

/** A filter file's `documents`: the gaps between ascending document numbers, the first counted from −1. */
export function filterGaps(ascending: readonly number[]): number[] {
  return ascending.map((o, i) => o - (i === 0 ? -1 : ascending[i - 1]!));
}

/** The document numbers a filter file's `documents` stand for, ascending. */
export function filterDocuments(gaps: readonly number[]): Int32Array {
  const out = new Int32Array(gaps.length);
  let at = -1;
  gaps.forEach((g, i) => (out[i] = at += g));
  return out;
}

export interface DocumentsFile {
  documents: SearchDocument[];
}

/** A name for a file from any text: its UTF-8 bytes in hex (any letter, any file system, the same name forever). */
function hexName(text: string): string {
  return [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A segment's folder, by its first document (the same folder while the segment grows: its unchanged files keep their names). */
export function segmentPath(start: number): string {
  return `segments/${start}/`;
}

/** The file of a term shard in the segment that starts at `segment`, by its key. */
export function termShardPath(segment: number, key: string): string {
  return `${segmentPath(segment)}terms/${hexName(key)}.json.gz`;
}

/** The documents file that holds document `ordinal`. */
export function documentsPath(ordinal: number, layout: SearchIndexLayout): string {
  return `documents/${Math.floor(ordinal / layout.documentsPerFile)}.json.gz`;
}

/**
 * The shard a term lives in: its first shardKeyLength code points (the whole term when shorter). Every term that
 * starts with a query word of at least that length is in the word's shard, so the last word of a query can match as
 * a prefix, and the near spellings of a misspelt word (typo.ts) are found in one file.
 */
export function shardKeyOf(term: string, layout: SearchIndexLayout): string {
  return [...term].slice(0, layout.shardKeyLength).join('');
}

/** The file of a filter value in a segment: named by the value, so that a new value leaves the others' files as they were. */
export function filterPath(segment: number, facet: string, value: string): string {
  return `${segmentPath(segment)}filters/${hexName(facet)}/${hexName(value)}.json.gz`;
}

/** BM25's term-frequency part for a term seen `tf` times in a document of `length` words, quantised. */
export function impactOf(tf: number, length: number): number {
  const norm = (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / REFERENCE_LENGTH));
  return Math.max(1, Math.min(IMPACT_LEVELS, Math.round((norm / (BM25_K1 + 1)) * IMPACT_LEVELS)));
}

/** The weight an impact stands for. */
export function weightOfImpact(impact: number): number {
  return (impact / IMPACT_LEVELS) * (BM25_K1 + 1);
}
