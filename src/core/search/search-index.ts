/**
 * Searches the archive's index (format.ts) by fetching only the files a query needs: the one reader of the search
 * page (src/site/client/search.ts) and the MCP server's search_records (src/mcp/search.ts), so both find the same
 * records in the same order. Framework-free; runs in browsers and in Node (fetch and DecompressionStream).
 *
 * A query's words must all occur in a record (its last word, once it is as long as a shard key, index.json's
 * shardKeyLength, also as the start of a longer word, since a reader may still be typing it); filters narrow to the
 * records with those values. Index files are found as index.json says they are cut. Ranking is BM25: each word
 * adds its rarity (inverse document frequency) times its weight in the record; a longer word a prefix matches counts
 * for less than the word itself, the shorter the prefix the less. Ties: the newest record first.
 * A query whose misspelt word has a near word in the index (typo.ts) that finds more records is answered with the
 * corrected query, as `corrected` says; words with a digit are never corrected (a hash absent from the archive must
 * find nothing, not its nearest neighbour).
 */
import { nearestWord, allowedEdits } from './typo.ts';
import { layoutProblem, SEARCH_INDEX_FORMAT, documentsPath, shardKeyOf, filterDocuments, filterPath, termShardPath, weightOfImpact, type DocumentsFile, type FilterFile, type SearchDocument, type SearchFilterValue, type SearchIndexManifest, type TermShardFile } from './format.ts';
import { TermShard, type Postings } from './term-shard.ts';
import { wordsOf } from './words.ts';

/** Fetches a file of the index by its path under the index folder: its bytes, or undefined when there is none (404). */
export type SearchIndexFetch = (path: string) => Promise<Uint8Array | undefined>;

const HAS_DIGIT = /\p{N}/u;

/** How much a prefix match counts against the word itself, at most (times the share of the word that was typed). */
const PREFIX_WEIGHT = 0.5;

export interface SearchAnswer {
  /** How many records match. */
  total: number;
  /** Every match, best first: document numbers for document(). */
  ranked: Int32Array;
  /** The words searched for, as index terms (for excerpts), and the last word when it matched as a prefix. */
  terms: string[];
  prefix?: string;
  /** Set when the query as typed had a misspelt word: the query searched instead, and how many the typed one found. */
  corrected?: { query: string; typedTotal: number };
}

export class SearchIndexError extends Error {}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  // A server may have decoded the file on the way (Content-Encoding): then it is JSON already.
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export class SearchIndex {
  readonly manifest: SearchIndexManifest;
  private readonly fetchFile: SearchIndexFetch;
  private readonly shards = new Map<string, Promise<TermShard>>();
  private readonly filterSets = new Map<string, Promise<Int32Array>>();
  private readonly documentFiles = new Map<string, Promise<SearchDocument[]>>();

  private constructor(manifest: SearchIndexManifest, fetchFile: SearchIndexFetch) {
    this.manifest = manifest;
    this.fetchFile = fetchFile;
  }

  /** Opens the index: reads index.json. */
  static async open(fetchFile: SearchIndexFetch): Promise<SearchIndex> {
    const bytes = await fetchFile('index.json');
    if (!bytes) throw new SearchIndexError('the site has no search index (index.json is missing)');
    const manifest = JSON.parse(new TextDecoder().decode(bytes)) as SearchIndexManifest;
    if (manifest.format !== SEARCH_INDEX_FORMAT) throw new SearchIndexError(`the search index is format ${manifest.format}; this reader reads format ${SEARCH_INDEX_FORMAT}`);
    // The files are found as index.json says they are cut, not as this reader's own build would cut them.
    const problem = layoutProblem(manifest) ?? segmentsProblem(manifest);
    if (problem) throw new SearchIndexError(`the search index's index.json is not usable: ${problem}`);
    return new SearchIndex(manifest, fetchFile);
  }

  private async json<T>(path: string): Promise<T | undefined> {
    const bytes = await this.fetchFile(path);
    return bytes === undefined ? undefined : (JSON.parse(new TextDecoder().decode(await gunzip(bytes))) as T);
  }

  /** A cached load that is forgotten when it fails (a network error is not an answer). */
  private cached<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
    let p = map.get(key);
    if (!p) {
      map.set(key, (p = load()));
      p.catch(() => map.delete(key));
    }
    return p;
  }

  /** The shard of `term`: its terms file in every segment (fetched together), merged. */
  private shard(term: string): Promise<TermShard> {
    const key = shardKeyOf(term, this.manifest);
    return this.cached(this.shards, key, async () => new TermShard(await Promise.all(this.manifest.segments.map((s) => this.json<TermShardFile>(termShardPath(s.start, key))))));
  }

  /** The documents with a filter's value: its file in each segment that has the value, ascending. */
  private filterSet(facet: string, value: string): Promise<Int32Array> {
    return this.cached(this.filterSets, JSON.stringify([facet, value]), async () => {
      const segments = this.manifest.segments.filter((s) => Object.hasOwn(s.filters, facet) && s.filters[facet]!.some((v) => v.value === value));
      const parts = await Promise.all(segments.map(async (s) => filterDocuments((await this.json<FilterFile>(filterPath(s.start, facet, value)))?.documents ?? [])));
      const out = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    });
  }

  /** The document numbered `ordinal` (from an answer's `ranked`). */
  async document(ordinal: number): Promise<SearchDocument> {
    const path = documentsPath(ordinal, this.manifest);
    const docs = await this.cached(this.documentFiles, path, async () => {
      const file = await this.json<DocumentsFile>(path);
      if (!file) throw new SearchIndexError(`the search index has no ${path}`);
      return file.documents;
    });
    const doc = docs[ordinal % this.manifest.documentsPerFile];
    if (!doc) throw new SearchIndexError(`the search index has no document ${ordinal}`);
    return doc;
  }

  /** Every value of a filter, as the index has it, with its number of records. */
  filterValues(facet: string): { value: string; documents: number }[] {
    return this.filterEntries(facet).map(({ value, documents }) => ({ value, documents }));
  }

  /** A facet's values; none for a name the index lacks (an own property only: "constructor" is no facet). */
  private filterEntries(facet: string): readonly SearchFilterValue[] {
    return Object.hasOwn(this.manifest.filters, facet) ? (this.manifest.filters[facet] ?? []) : [];
  }

  /** The records for `query` (null or empty: by filters alone, newest first) and `filters` (facet → value). */
  async search(query: string | null, filters: Readonly<Record<string, string>> = {}): Promise<SearchAnswer> {
    const typed = await this.run(query ?? '', filters);
    if (query === null || typed.words.length === 0) return typed.answer;
    const corrected = await this.correction(typed.words);
    if (corrected === undefined) return typed.answer;
    const better = await this.run(corrected, filters);
    if (better.answer.total <= typed.answer.total) return typed.answer;
    return { ...better.answer, corrected: { query: corrected, typedTotal: typed.answer.total } };
  }

  /** The query with each word the index lacks replaced by its nearest word of the index, or undefined when none is. */
  private async correction(words: readonly string[]): Promise<string | undefined> {
    let changed = false;
    const out: string[] = [];
    for (const word of words) {
      let replacement: string | undefined;
      // A word with a digit (a number, a hash, an id) is looked for as typed: a hash one digit off another is not a typo.
      if (allowedEdits(word) > 0 && !HAS_DIGIT.test(word)) {
        const shard = await this.shard(word);
        if (shard.indexOf(word) < 0) replacement = nearestWord(word, new Map(shard.entries()));
      }
      if (replacement !== undefined) changed = true;
      out.push(replacement ?? word);
    }
    return changed ? out.join(' ') : undefined;
  }

  private async run(query: string, filters: Readonly<Record<string, string>>): Promise<{ words: string[]; answer: SearchAnswer }> {
    const n = this.manifest.documents;
    const words = [...new Set(wordsOf(query))];
    // Filters: a mark per document, counting the filters it satisfies.
    const filterList = Object.entries(filters);
    let allowed: Uint8Array | undefined;
    if (filterList.length > 0) {
      allowed = new Uint8Array(n);
      const sets = await Promise.all(filterList.map(([facet, value]) => this.filterSet(facet, value)));
      for (const set of sets) for (const o of set) allowed[o]!++;
      for (let o = 0; o < n; o++) allowed[o] = allowed[o] === filterList.length ? 1 : 0;
    }
    if (words.length === 0) {
      const ranked: number[] = [];
      if (allowed) for (let o = n - 1; o >= 0; o--) if (allowed[o]) ranked.push(o);
      return { words, answer: { total: ranked.length, ranked: Int32Array.from(ranked), terms: [] } };
    }
    const shards = await Promise.all(words.map((w) => this.shard(w)));
    const last = words.at(-1)!;
    const prefix = [...last].length >= this.manifest.shardKeyLength ? last : undefined;
    // Each word's matching terms: the word itself, and for the last word (a prefix) every term it starts.
    const matches = words.map((word, i): Match[] => {
      const shard = shards[i]!;
      const [start, end] = i === words.length - 1 && prefix !== undefined ? shard.prefixRange(word) : exact(shard.indexOf(word));
      const out: Match[] = [];
      for (let t = start; t < end; t++) {
        const term = shard.termAt(t);
        const df = shard.documentsAt(t);
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const similarity = term === word ? 1 : PREFIX_WEIGHT * ([...word].length / [...term].length);
        out.push({ postings: shard.postingsAt(t), weight: idf * similarity });
      }
      return out;
    });
    if (matches.some((m) => m.length === 0)) return { words, answer: { total: 0, ranked: new Int32Array(0), terms: [] } };
    const terms = words.filter((w, i) => shards[i]!.indexOf(w) >= 0);
    // The rarest word first: its documents are the candidates, and every later word only narrows them.
    const order = words.map((_, i) => i).sort((a, b) => postingCount(matches[a]!) - postingCount(matches[b]!));
    const scores = new Float64Array(n);
    let candidates: Int32Array | undefined;
    for (const i of order) {
      const best = new Map<number, number>();
      for (const { postings, weight } of matches[i]!) addBest(best, postings, weight, candidates);
      const next: number[] = [];
      for (const [o, s] of best) {
        scores[o]! += s;
        next.push(o);
      }
      candidates = Int32Array.from(next).sort();
      if (candidates.length === 0) break;
    }
    const hits = [...candidates!].filter((o) => !allowed || allowed[o]);
    hits.sort((a, b) => scores[b]! - scores[a]! || b - a);
    return { words, answer: { total: hits.length, ranked: Int32Array.from(hits), terms, ...(prefix !== undefined ? { prefix } : {}) } };
  }
}

/**
 * What is wrong with index.json's segments, if anything: they must cover the documents in order, without a gap or
 * an overlap (a reader concatenates their postings as one ascending list).
 */
function segmentsProblem({ documents, segments }: SearchIndexManifest): string | undefined {
  if (!Array.isArray(segments)) return 'segments must be a list';
  let next = 0;
  for (const s of segments) {
    if (s === null || typeof s !== 'object' || s.start !== next) {
      return `the segments must cover documents 0 to ${documents - 1} in order; segment ${JSON.stringify(s?.start)} does not follow document ${next - 1}`;
    }
    if (!Number.isSafeInteger(s.count) || s.count < 1) return `segment ${next} must hold a whole number of documents from 1, not ${JSON.stringify(s.count)}`;
    if (typeof s.filters !== 'object' || s.filters === null) return `segment ${next} must list its filters' values`;
    next += s.count;
  }
  return next === documents ? undefined : `the segments hold ${next} documents, not ${documents}`;
}

interface Match {
  postings: Postings;
  /** The term's rarity times how much it counts for the word (1 for the word itself, less for a longer word). */
  weight: number;
}

const exact = (i: number): [number, number] => (i < 0 ? [0, 0] : [i, i + 1]);
const postingCount = (matches: readonly Match[]) => matches.reduce((sum, m) => sum + m.postings.ordinals.length, 0);

/**
 * Adds to `best` each document of `postings` (only the `candidates`, when given: ascending) with the term's score
 * there, keeping the larger score when a document has several terms of the word. Few candidates against a long list:
 * each is looked up by binary search; otherwise the list is walked beside them.
 */
function addBest(best: Map<number, number>, { ordinals, impacts }: Postings, weight: number, candidates: Int32Array | undefined): void {
  const put = (k: number) => {
    const o = ordinals[k]!;
    const s = weight * weightOfImpact(impacts[k]!);
    const had = best.get(o);
    if (had === undefined || s > had) best.set(o, s);
  };
  if (candidates === undefined) {
    for (let k = 0; k < ordinals.length; k++) put(k);
  } else if (candidates.length * Math.log2(ordinals.length + 1) < ordinals.length) {
    for (const o of candidates) {
      let lo = 0;
      let hi = ordinals.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ordinals[mid]! < o) lo = mid + 1;
        else hi = mid;
      }
      if (ordinals[lo] === o) put(lo);
    }
  } else {
    let c = 0;
    for (let k = 0; k < ordinals.length && c < candidates.length; k++) {
      while (c < candidates.length && candidates[c]! < ordinals[k]!) c++;
      if (candidates[c] === ordinals[k]) put(k);
    }
  }
}
