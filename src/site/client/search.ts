/**
 * The search page in the browser: Pagefind's JavaScript API (/pagefind/pagefind.js, same origin, built after the
 * site), with our own result list. Results are built with DOM methods; the only markup taken from the index is
 * Pagefind's <mark> highlighting in excerpts, rebuilt element by element (everything else becomes text).
 * The query and filters live in the URL (?q=…&record_kind=…), so a search can be shared and reloaded.
 */

import { correctedQuery } from './did-you-mean.ts';

interface PagefindResultData {
  url: string;
  excerpt: string;
  content?: string;
  meta: Record<string, string | undefined>;
}
interface PagefindResult {
  id: string;
  data: () => Promise<PagefindResultData>;
}
interface PagefindSearch {
  results: PagefindResult[];
}
interface Pagefind {
  options: (o: Record<string, unknown>) => Promise<void>;
  init?: () => Promise<void>;
  search: (q: string | null, o?: { filters?: Record<string, string> }) => Promise<PagefindSearch | null>;
  debouncedSearch?: unknown;
  mergeIndex: (url: string, o?: Record<string, unknown>) => Promise<void>;
}

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

  let pagefind: Promise<Pagefind> | undefined;
  const load = () =>
    (pagefind ??= (async () => {
      const pf = (await import(/* @vite-ignore */ form.dataset.pagefindUrl!)) as Pagefind;
      // The ranking applies per bundle, so every merged bundle gets it too (src/core/publish/search-bundles.ts).
      const ranking = JSON.parse(form.dataset.ranking ?? '{}') as Record<string, number>;
      await pf.options({ baseUrl: base, excerptLength: 36, ranking });
      // Large archives have more than one bundle (src/core/publish/search-bundles.ts): one index, merged here.
      for (const url of JSON.parse(form.dataset.mergeBundles ?? '[]') as string[]) await pf.mergeIndex(url, { baseUrl: base, ranking });
      await pf.init?.();
      return pf;
    })());

  // State from the URL (the home page's search box sends ?q=…).
  const params = new URLSearchParams(location.search);
  input.value = params.get('q') ?? '';
  for (const s of selects) {
    const v = params.get(s.name);
    if (v && [...s.options].some((o) => o.value === v)) s.value = v;
  }

  let results: PagefindResult[] = [];
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
      results = [];
      list.replaceChildren();
      more.hidden = true;
      status.textContent = '';
      return;
    }
    status.textContent = 'Searching…';
    let search: PagefindSearch | null;
    let corrected: { query: string; typedCount: number } | undefined;
    try {
      const pf = await load();
      search = await pf.search(q === '' ? null : q, { filters });
      // A misspelt word (src/site/client/did-you-mean.ts): the nearest word of the index, when it finds more.
      if (search && q !== '' && mine === generation) {
        const near = await correctedQuery(pf as unknown as Parameters<typeof correctedQuery>[0], q, { filters });
        const better = near === undefined ? null : await pf.search(near, { filters });
        if (near !== undefined && better && better.results.length > search.results.length) {
          corrected = { query: near, typedCount: search.results.length };
          search = better;
        }
      }
    } catch {
      if (mine === generation) status.textContent = 'Search is not available: the search index did not load. Browse the records with filters instead.';
      return;
    }
    if (mine !== generation || !search) return;
    results = search.results;
    shown = 0;
    list.replaceChildren();
    const found = results.length === 0 ? 'No records match.' : `${results.length} record${results.length === 1 ? '' : 's'} found`;
    status.textContent = corrected
      ? `${found} for “${corrected.query}” (the nearest words of the archive; “${q}” finds ${corrected.typedCount}).`
      : results.length === 0
        ? found
        : `${found}.`;
    await showMore(mine);
  }

  async function showMore(mine: number): Promise<void> {
    const batch = results.slice(shown, shown + PAGE);
    const data = await Promise.all(batch.map((r) => r.data()));
    if (mine !== generation) return;
    const first = shown;
    for (const d of data) list.append(item(d));
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

  function item(d: PagefindResultData): HTMLLIElement {
    const li = document.createElement('li');
    li.className = 'record-item';
    const h = document.createElement('h2');
    h.className = 'record-item-title';
    const a = document.createElement('a');
    // Only same-origin paths from the index become links.
    a.href = new URL(d.url, location.href).origin === location.origin ? d.url : '#';
    const bdi = document.createElement('bdi');
    bdi.textContent = d.meta.title ?? d.url;
    a.append(bdi);
    h.append(a);
    const meta = document.createElement('p');
    meta.className = 'record-item-meta';
    const parts = [d.meta.date, d.meta.kind, d.meta.status].filter((x): x is string => !!x);
    if (d.meta.id) {
      const code = document.createElement('code');
      code.className = 'record-item-id';
      code.textContent = d.meta.id;
      meta.append(code);
    }
    for (const part of parts) meta.append(` · ${part}`);
    if (d.meta.withdrawn) {
      const badge = document.createElement('span');
      badge.className = 'badge badge-warn';
      badge.textContent = 'Withdrawn';
      meta.append(' ', badge);
    }
    const excerpt = document.createElement('p');
    excerpt.className = 'record-item-excerpt';
    excerpt.dir = 'auto';
    excerpt.append(...excerptNodes(d.excerpt));
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
  else void load().catch(() => undefined); // warm up: fetch the index entry point while the reader types
}

/** Pagefind's excerpt: text with <mark> around matches. Rebuilt as text nodes and <mark> elements only. */
function excerptNodes(html: string): Node[] {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const out: Node[] = [];
  for (const node of doc.body.childNodes) {
    if (node.nodeType === Node.ELEMENT_NODE && (node as Element).tagName === 'MARK') {
      const mark = document.createElement('mark');
      mark.textContent = node.textContent;
      out.push(mark);
    } else out.push(document.createTextNode(node.textContent ?? ''));
  }
  return out;
}
