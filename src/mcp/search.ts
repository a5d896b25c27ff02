/**
 * The site's own search, run here: the archive's search index (src/core/search) read from the site over HTTP with
 * the same reader the search page runs in a browser (src/site/client/search.ts), so that a query finds the records
 * the site's search finds, in the same order, with the same typo tolerance. The reader fetches only the files a query
 * needs and keeps them; answers are kept too (a conversation repeats queries).
 */
import { NetworkError } from '../builder/net.ts';
import { excerptOf, excerptText } from '../core/search/excerpt.ts';
import { SEARCH_INDEX_DIR, type SearchDocument } from '../core/search/format.ts';
import { SearchIndex, type SearchAnswer } from '../core/search/search-index.ts';
import type { SiteClient } from './site-client.ts';

/** The most results a caller reads (search_records' largest limit). */
export const MAX_HITS = 50;
/** Answers kept, most recently used last. */
export const ANSWERS_KEPT = 256;

export interface SearchHit {
  document: SearchDocument;
  /** Where the words occur: plain text (the submitter's words). */
  excerpt: string;
}

export class SiteSearch {
  private readonly site: SiteClient;
  private index: Promise<SearchIndex> | undefined;
  private readonly answers = new Map<string, Promise<SearchAnswer>>();

  constructor(site: SiteClient) {
    this.site = site;
  }

  private load(): Promise<SearchIndex> {
    if (!this.index) {
      this.index = SearchIndex.open(async (path) => {
        const body = await this.site.getIfPresent(`/${SEARCH_INDEX_DIR}/${path}`, 'application/json, application/gzip');
        return body ? new Uint8Array(body.bytes) : undefined;
      }).catch((err: unknown) => {
        this.index = undefined;
        throw err instanceof NetworkError ? err : new NetworkError(`the site's search index cannot be read: ${(err as Error).message}`);
      });
    }
    return this.index;
  }

  /** The site's results for `query` (null: filters only), in the site's order; documents and excerpts of the first `limit`. */
  async search(
    query: string | null,
    filters: Record<string, string>,
    limit: number,
  ): Promise<{ total: number; hits: SearchHit[]; corrected?: { query: string; typedTotal: number } }> {
    const index = await this.load();
    const key = JSON.stringify([query, Object.entries(filters).sort()]);
    let answer = this.answers.get(key);
    if (answer) this.answers.delete(key);
    else {
      answer = index.search(query, filters);
      answer.catch(() => this.answers.delete(key));
    }
    this.answers.set(key, answer);
    if (this.answers.size > ANSWERS_KEPT) this.answers.delete(this.answers.keys().next().value!);
    const { total, ranked, terms, prefix, corrected } = await answer;
    const matched = new Set(terms);
    const documents = await Promise.all([...ranked.subarray(0, Math.min(limit, MAX_HITS))].map((o) => index.document(o)));
    const hits = documents.map((document) => ({ document, excerpt: excerptText(excerptOf(document.text, matched, prefix)) }));
    return { total, hits, ...(corrected ? { corrected } : {}) };
  }
}
