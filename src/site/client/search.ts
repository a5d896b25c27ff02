/**
 * The search page in the browser: the archive's own search index (src/core/search, files under /search-index/, same
 * origin), read with the same reader the MCP server uses, so both find the same records. Results are built with DOM
 * methods from the index's plain text; the excerpt's matches become <mark> elements, and nothing from the index is
 * ever parsed as HTML. The query and filters live in the URL (?q=…&record_kind=…), so a search can be shared and
 * reloaded.
 */

import { excerptOf, type ExcerptPiece } from '../../core/search/excerpt.ts';
import type { SearchDocument } from '../../core/search/format.ts';
import { SearchIndex, type SearchAnswer } from '../../core/search/search-index.ts';
import { syncSelect } from './filter-options.ts';

const PAGE = 10;

const form = document.querySelector<HTMLFormElement>('[data-search-form]');
if (form) init(form);

function init(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
  const selects = [...form.querySelectorAll<HTMLSelectElement>('select')];
  const status = document.querySelector<HTMLElement>('[data-search-status]')!;
  const list = document.querySelector<HTMLOListElement>('[data-search-results]')!;
  const more = document.querySelector<HTMLButtonElement>('[data-search-more]')!;
  const base = form.dataset.base!;

  const indexUrl = form.dataset.indexUrl!;
  let index: Promise<SearchIndex> | undefined;
  const load = (): Promise<SearchIndex> => {
    if (index) return index;
    const opening = SearchIndex.open(async (path) => {
      const response = await fetch(`${indexUrl}${path}`);
      if (response.status === 404) return undefined;
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    });
    // A failed opening is not kept: the next search tries again.
    opening.catch(() => (index = undefined));
    return (index = opening);
  };

  // State from the URL (the home page's search box sends ?q=…).
  const params = new URLSearchParams(location.search);
  input.value = params.get('q') ?? '';
  for (const s of selects) {
    const v = params.get(s.name);
    if (v && [...s.options].some((o) => o.value === v)) s.value = v;
  }

  // The page offers every value the schema allows; once index.json is in (fetched now, while the reader types), each
  // filter keeps the values some record has (filter-options.ts). A value from the URL that only the index has is
  // selected then, and the search runs again with it.
  const synced = load().then((opened) => {
    let selected = false;
    for (const s of selects) selected = syncSelect(s, opened.filterValues(s.name).map((v) => v.value), params.get(s.name)) || selected;
    form.dataset.filtersSynced = '';
    if (selected) void run();
  });
  synced.catch(() => undefined); // a search says so, and tries again

  let answer: SearchAnswer | undefined;
  let results: Int32Array = new Int32Array(0);
  let shown = 0;
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function run(): Promise<void> {
    const mine = ++generation;
    const q = input.value.trim();
    const filters: Record<string, string> = {};
    for (const s of selects) if (s.value) filters[s.name] = s.value;
    syncUrl(q, filters);
    if (q === '' && Object.keys(filters).length === 0) {
      results = new Int32Array(0);
      list.replaceChildren();
      more.hidden = true;
      status.textContent = '';
      return;
    }
    status.textContent = 'Searching…';
    let answered: SearchAnswer;
    try {
      // A misspelt word (src/core/search/typo.ts) is answered with the nearest words of the index, when they find more.
      answered = await (await load()).search(q === '' ? null : q, filters);
    } catch {
      if (mine === generation) status.textContent = 'Search is not available: the search index did not load. Browse the records with filters instead.';
      return;
    }
    if (mine !== generation) return;
    answer = answered;
    results = answered.ranked;
    const corrected = answered.corrected;
    shown = 0;
    list.replaceChildren();
    const found = results.length === 0 ? 'No records match.' : `${results.length} record${results.length === 1 ? '' : 's'} found`;
    status.textContent = corrected
      ? `${found} for “${corrected.query}” (the nearest words of the archive; “${q}” finds ${corrected.typedTotal}).`
      : results.length === 0
        ? found
        : `${found}.`;
    await showMore(mine);
  }

  async function showMore(mine: number): Promise<void> {
    const batch = [...results.subarray(shown, shown + PAGE)];
    const current = answer;
    let docs: SearchDocument[];
    try {
      const idx = await load();
      docs = await Promise.all(batch.map((o) => idx.document(o)));
    } catch {
      if (mine === generation) status.textContent = 'Search is not available: the search index did not load. Browse the records with filters instead.';
      return;
    }
    if (mine !== generation || !current) return;
    const first = shown;
    const terms = new Set(current.terms);
    for (const d of docs) list.append(item(d, excerptOf(d.text, terms, current.prefix)));
    shown += batch.length;
    more.hidden = shown >= results.length;
    more.textContent = `Show more results (${results.length - shown} left)`;
    if (first > 0) list.querySelectorAll<HTMLAnchorElement>('.record-item-title a')[first]?.focus();
  }

  function syncUrl(q: string, filters: Record<string, string>): void {
    const p = new URLSearchParams();
    if (q) p.set('q', q);
    for (const [k, v] of Object.entries(filters)) p.set(k, v);
    const query = p.toString();
    history.replaceState(null, '', query ? `?${query}` : location.pathname);
  }

  function item(d: SearchDocument, pieces: readonly ExcerptPiece[]): HTMLLIElement {
    const li = document.createElement('li');
    li.className = 'record-item';
    const h = document.createElement('h2');
    h.className = 'record-item-title';
    const a = document.createElement('a');
    // Only the site's own record pages become links.
    a.href = /^records\/[^/?#]+\/$/.test(d.page) ? `${base}${d.page}` : '#';
    const bdi = document.createElement('bdi');
    bdi.textContent = d.title;
    a.append(bdi);
    h.append(a);
    const meta = document.createElement('p');
    meta.className = 'record-item-meta';
    const parts = [d.date, d.kind, d.status].filter((x): x is string => !!x);
    const code = document.createElement('code');
    code.className = 'record-item-id';
    code.textContent = d.id;
    meta.append(code);
    for (const part of parts) meta.append(` · ${part}`);
    if (d.withdrawn) {
      const badge = document.createElement('span');
      badge.className = 'badge badge-warn';
      badge.textContent = 'Withdrawn';
      meta.append(' ', badge);
    }
    const excerpt = document.createElement('p');
    excerpt.className = 'record-item-excerpt';
    excerpt.dir = 'auto';
    excerpt.append(...excerptNodes(pieces));
    li.append(h, meta, excerpt);
    return li;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    void run();
  });
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), 250);
  });
  for (const s of selects) s.addEventListener('change', () => void run());
  more.addEventListener('click', () => void showMore(generation));

  if (input.value || selects.some((s) => s.value)) void run();
}

/** The excerpt as text nodes and <mark> elements: the submitter's text is only ever text. */
function excerptNodes(pieces: readonly ExcerptPiece[]): Node[] {
  return pieces.map((p) => {
    if (!p.mark) return document.createTextNode(p.text);
    const mark = document.createElement('mark');
    mark.textContent = p.text;
    return mark;
  });
}
