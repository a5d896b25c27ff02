/**
 * The site's own search, run here: Pagefind's JavaScript and WebAssembly (/pagefind/pagefind.js, built by
 * scripts/build-search.ts) loaded from the site and run in Node, set up as the search page sets it up in a browser
 * (src/site/client/search.ts: the page's ranking, the other bundles merged, and its typo tolerance: a misspelt word
 * replaced by the nearest word of the index when that finds more, src/site/client/did-you-mean.ts), so that a query
 * finds the records the site's search finds. Pagefind fetches its index files from the site with Node's fetch.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NetworkError } from '../builder/net.ts';
import { allowedEdits, correctedQuery, type PagefindLike } from '../site/client/did-you-mean.ts';
import type { SiteClient } from './site-client.ts';

interface PagefindResultData {
  url: string;
  excerpt: string;
  content?: string;
  meta: Record<string, string | undefined>;
  filters?: Record<string, string[]>;
}
interface PagefindApi {
  options(o: Record<string, unknown>): Promise<void>;
  mergeIndex(url: string, o?: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(q: string | null, o?: { filters?: Record<string, string> }): Promise<{ results: Array<{ id: string; score?: number; data(): Promise<PagefindResultData> }> } | null>;
  filters?(): Promise<Record<string, Record<string, number>>>;
}

export interface SearchHit {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
}

/**
 * Loads a module from its source text: written to a fresh temporary file, imported, and the file removed at once
 * (the module stays loaded). A fresh file per load gives each site its own instance of Pagefind.
 */
async function importModule(source: string): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'echo-archive-pagefind-'));
  try {
    const file = join(dir, 'pagefind.mjs');
    writeFileSync(file, source);
    return await import(/* @vite-ignore */ pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function attr(page: string, name: string): string | undefined {
  const m = new RegExp(`${name}="([^"]*)"`).exec(page);
  return m?.[1]?.replaceAll('&quot;', '"').replaceAll('&#34;', '"').replaceAll('&amp;', '&');
}

const WORDS = /[\p{L}\p{N}]+/gu;

/**
 * Whether every word of `query` the typo tolerance would look up (did-you-mean.ts: letters and digits, 4 or more) is
 * a whole word of the first result's text: then each is a word of the index, and the search page's correction (which
 * looks each word up again, one search per word) would change none of them. A shortcut, not another rule.
 */
async function wordsOfFirst(results: ReadonlyArray<{ data(): Promise<PagefindResultData> }>, query: string): Promise<boolean> {
  if (results.length === 0) return false;
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => /^[\p{L}\p{N}]+$/u.test(w) && allowedEdits(w) > 0);
  if (words.length === 0) return true;
  const content = new Set(((await results[0]!.data()).content ?? '').toLowerCase().match(WORDS) ?? []);
  return words.every((w) => content.has(w));
}

/** The most results a caller reads (search_records' largest limit). */
export const MAX_HITS = 50;
/** Answers kept (Pagefind caches its files, not its answers; a conversation repeats queries). */
export const ANSWERS_KEPT = 256;

interface Answer {
  total: number;
  top: Array<{ data(): Promise<PagefindResultData> }>;
  corrected?: { query: string; typedTotal: number };
}

export class PagefindSearch {
  private readonly site: SiteClient;
  private api: Promise<PagefindApi> | undefined;
  /** Recent answers by query and filters, oldest first (the site's files do not change under a loaded index). */
  private readonly answers = new Map<string, Promise<Answer>>();

  constructor(site: SiteClient) {
    this.site = site;
  }

  private load(): Promise<PagefindApi> {
    if (!this.api) {
      this.api = this.start();
      this.api.catch(() => {
        this.api = undefined;
      });
    }
    return this.api;
  }

  private async start(): Promise<PagefindApi> {
    // The search page says where the first bundle is, which bundles to merge and the ranking (src/pages/search.astro).
    const page = await this.site.getIfPresent('/search/', 'text/html');
    const html = page ? Buffer.from(page.bytes).toString('utf8') : '';
    const first = attr(html, 'data-pagefind-url') ?? '/pagefind/pagefind.js';
    const merge = JSON.parse(attr(html, 'data-merge-bundles') ?? '[]') as string[];
    const ranking = JSON.parse(attr(html, 'data-ranking') ?? '{}') as Record<string, number>;
    const scriptUrl = this.site.url(first);
    const script = await this.site.getIfPresent(first, 'text/javascript');
    if (!script) throw new NetworkError(`the site has no search index (${scriptUrl} answered 404): it was built without scripts/build-search.ts`);
    const api = (await importModule(Buffer.from(script.bytes).toString('utf8'))) as PagefindApi;
    const basePath = scriptUrl.replace(/pagefind\.js$/, '');
    await api.options({ basePath, baseUrl: '/', excerptLength: 36, ranking });
    for (const url of merge) await api.mergeIndex(this.site.url(url), { baseUrl: '/', ranking });
    await api.init();
    return api;
  }

  /**
   * The site's results for `query` (null: filters only), in the site's order; data for the first `limit`. As the
   * search page does, a query whose misspelt word has a nearest word in the index that finds more is answered with
   * the corrected query (`corrected`: it, and how many the words as typed found).
   */
  async search(
    query: string | null,
    filters: Record<string, string>,
    limit: number,
  ): Promise<{ total: number; hits: SearchHit[]; corrected?: { query: string; typedTotal: number } }> {
    const key = JSON.stringify([query, Object.entries(filters).sort()]);
    let answer = this.answers.get(key);
    if (answer) {
      // Most recently used last: the oldest goes first when the memo is full.
      this.answers.delete(key);
    } else {
      answer = this.answer(query, filters);
      answer.catch(() => this.answers.delete(key));
    }
    this.answers.set(key, answer);
    if (this.answers.size > ANSWERS_KEPT) this.answers.delete(this.answers.keys().next().value!);
    const { total, top, corrected } = await answer;
    const data = await Promise.all(top.slice(0, limit).map((r) => r.data()));
    return { total, hits: data.map((d) => ({ url: d.url, excerpt: d.excerpt, meta: d.meta ?? {} })), ...(corrected ? { corrected } : {}) };
  }

  /** The site's answer to a query: how many match, the first MAX_HITS results, the correction made. */
  private async answer(query: string | null, filters: Record<string, string>): Promise<Answer> {
    const api = await this.load();
    const options = Object.keys(filters).length > 0 ? { filters } : {};
    const found = await api.search(query, options);
    let results = found?.results ?? [];
    let corrected: { query: string; typedTotal: number } | undefined;
    if (found && query !== null && query !== '' && !(await wordsOfFirst(results, query))) {
      const near = await correctedQuery(api as unknown as PagefindLike, query, { filters });
      const better = near === undefined ? null : await api.search(near, options);
      if (near !== undefined && better && better.results.length > results.length) {
        corrected = { query: near, typedTotal: results.length };
        results = better.results;
      }
    }
    return { total: results.length, top: results.slice(0, MAX_HITS), ...(corrected ? { corrected } : {}) };
  }
}
