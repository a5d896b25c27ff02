/**
 * Browse filters in the browser: the facet links of a browse page become toggles that combine across facets
 * (one value per facet, all facets AND-ed). The records come from /browse/records.json, fetched on first use;
 * the list is rebuilt with DOM methods and textContent only (record text is never parsed as HTML). The filter
 * state lives in the URL (a single filter uses its static page's URL, several use /browse/?facet=value&…), so a
 * filtered view can be shared and reloaded, and the back button works. Without JavaScript the links still lead
 * to the static page of each value.
 */

export {};

interface FacetData {
  key: string;
  label: string;
  values: string[];
  labels: string[];
}

/** [id, archive date or "", title, title is the agent's name (1/0), facet value indexes (−1 = not stated), badge indexes] */
type Row = [string, string, string, 0 | 1, number[], number[]];

interface BrowseData {
  facets: FacetData[];
  notStatedLabel: string;
  badges: [string, string][];
  records: Row[];
}

const PAGE = 50;

const root = document.querySelector<HTMLElement>('[data-browse]');
if (root) init(root);

function init(root: HTMLElement): void {
  const dataUrl = root.dataset.recordsUrl!;
  const browseUrl = root.dataset.browseUrl!;
  const recordBase = root.dataset.recordBase!;
  const chips = [...root.querySelectorAll<HTMLAnchorElement>('a.chip[data-facet]')];
  const staticResults = root.querySelector<HTMLElement>('[data-static-results]')!;
  const dynamicResults = root.querySelector<HTMLElement>('[data-dynamic-results]')!;
  const summaryText = root.querySelector<HTMLElement>('[data-summary-text]')!;
  const heading = root.querySelector<HTMLElement>('#browse-heading');
  const clear = root.querySelector<HTMLAnchorElement>('[data-clear]');
  const staticHeading = heading?.textContent ?? '';
  const staticSummary = summaryText.textContent ?? '';
  const pageState = new Map<string, string>();
  const loadedPath = location.pathname;
  if (root.dataset.currentFacet) pageState.set(root.dataset.currentFacet, root.dataset.currentValue ?? '');

  let data: Promise<BrowseData> | undefined;
  const load = () =>
    (data ??= fetch(dataUrl, { credentials: 'same-origin' }).then((r) => {
      if (!r.ok) throw new Error(`${dataUrl}: HTTP ${r.status}`);
      return r.json() as Promise<BrowseData>;
    }));

  let state = stateFromLocation();
  let shown = PAGE;

  /**
   * The filters the address names, read from the address alone: every address urlFor() writes reads back as the
   * state it was written for. Several filters are in the query (/browse/?facet=value&…); a single filter is its
   * value's static page (a chip's own path); the address the page was loaded at is the page's own facet (its later
   * pages included); anything else (/browse/) is no filter. A history entry without state (a fragment change such
   * as the "Filters" jump link) therefore keeps the filters the address names instead of the page's starting ones.
   */
  function stateFromLocation(): Map<string, string> {
    const params = new URLSearchParams(location.search);
    const fromQuery = new Map<string, string>();
    for (const chip of chips) {
      const key = chip.dataset.facet!;
      if (params.has(key) && !fromQuery.has(key)) fromQuery.set(key, params.get(key)!);
    }
    if (fromQuery.size > 0) return fromQuery;
    if (location.pathname === loadedPath) return new Map(pageState);
    const chip = chips.find((c) => new URL(c.href, location.href).pathname === location.pathname);
    return chip ? new Map([[chip.dataset.facet!, chip.dataset.value ?? '']]) : new Map();
  }

  function isPageState(s: Map<string, string>): boolean {
    return s.size === pageState.size && [...s].every(([k, v]) => pageState.get(k) === v);
  }

  function urlFor(s: Map<string, string>): string {
    if (s.size === 0) return browseUrl;
    if (s.size === 1) {
      const [key, value] = [...s][0]!;
      const chip = chips.find((c) => c.dataset.facet === key && c.dataset.value === value);
      if (chip) return chip.href;
    }
    const params = new URLSearchParams();
    for (const chip of chips) {
      const key = chip.dataset.facet!;
      if (s.has(key) && !params.has(key)) params.set(key, s.get(key)!);
    }
    return `${browseUrl}?${params}`;
  }

  function markChips(): void {
    for (const chip of chips) {
      const on = state.get(chip.dataset.facet!) === chip.dataset.value;
      chip.setAttribute('aria-pressed', String(on));
      chip.removeAttribute('aria-current');
    }
    if (clear) clear.hidden = state.size === 0;
  }

  async function render(): Promise<void> {
    markChips();
    if (isPageState(state) && !location.search) {
      // The page as built: its own list, navigation and counts (if it has them).
      staticResults.hidden = false;
      dynamicResults.hidden = true;
      if (heading) heading.textContent = staticHeading;
      summaryText.textContent = staticSummary;
      resetCounts();
      return;
    }
    let d: BrowseData;
    try {
      d = await load();
    } catch {
      summaryText.textContent = 'The filters could not be combined (the record list did not load). Each filter link still works on its own.';
      return;
    }
    const selected = d.facets.map((f) => {
      if (!state.has(f.key)) return undefined;
      const value = state.get(f.key)!;
      return value === '' ? -1 : f.values.indexOf(value);
    });
    // Counts per facet value given the other selected facets; matches for all of them.
    const counts = d.facets.map((f) => new Array<number>(f.values.length + 1).fill(0));
    const matches: Row[] = [];
    for (const row of d.records) {
      let misses = 0;
      let missed = -1;
      for (let i = 0; i < selected.length; i++) {
        if (selected[i] !== undefined && row[4][i] !== selected[i]) {
          misses++;
          missed = i;
        }
      }
      if (misses === 0) {
        matches.push(row);
        for (let i = 0; i < d.facets.length; i++) counts[i]![slot(row[4][i]!)]!++;
      } else if (misses === 1) counts[missed]![slot(row[4][missed]!)]!++;
    }
    for (const chip of chips) {
      const i = d.facets.findIndex((f) => f.key === chip.dataset.facet);
      if (i === -1) continue;
      const value = chip.dataset.value!;
      const n = counts[i]![slot(value === '' ? -1 : d.facets[i]!.values.indexOf(value))] ?? 0;
      countOf(chip).textContent = String(n);
      chip.classList.toggle('chip-empty', n === 0);
    }
    const described = d.facets
      .filter((f) => state.has(f.key))
      .map((f) => {
        const v = state.get(f.key)!;
        return `${f.label}: ${v === '' ? d.notStatedLabel : (f.labels[f.values.indexOf(v)] ?? v)}`;
      });
    if (heading) heading.textContent = described.length === 0 ? 'All records' : described.length === 1 ? described[0]! : 'Filtered records';
    const withdrawn = matches.filter((r) => r[5].some((b) => d.badges[b]?.[0] === 'Withdrawn')).length;
    summaryText.textContent =
      `${matches.length} record${matches.length === 1 ? '' : 's'}` +
      (withdrawn > 0 ? `, ${withdrawn} of them withdrawn (listed, not counted)` : '') +
      (described.length > 0 ? ` — ${described.join('; ')}` : '') +
      ', newest first.';
    staticResults.hidden = true;
    dynamicResults.hidden = false;
    drawList(d, matches);
  }

  function slot(index: number): number {
    return index === -1 ? 0 : index + 1;
  }

  /**
   * A chip's count. Most listing pages are built without counts (they would change with every record added); a
   * combination of filters shows counts all the same, in a count the script adds, and takes it out again.
   */
  function countOf(chip: HTMLAnchorElement): HTMLElement {
    let count = chip.querySelector<HTMLElement>('.chip-count');
    if (!count) {
      count = document.createElement('span');
      count.className = 'chip-count';
      chip.append(count);
    }
    return count;
  }

  function resetCounts(): void {
    for (const chip of chips) {
      const count = chip.querySelector('.chip-count');
      const built = count?.getAttribute('data-static');
      if (built === null || built === undefined) count?.remove();
      else count!.textContent = built;
      chip.classList.remove('chip-empty');
    }
  }

  function drawList(d: BrowseData, rows: Row[]): void {
    const list = document.createElement('ol');
    list.className = 'record-list';
    list.setAttribute('role', 'list');
    for (const row of rows.slice(0, shown)) list.append(item(d, row));
    const parts: Node[] = [rows.length === 0 ? paragraph('No records match these filters.', 'muted') : list];
    if (rows.length > shown) {
      const more = document.createElement('button');
      more.type = 'button';
      more.className = 'more';
      more.textContent = `Show ${Math.min(PAGE, rows.length - shown)} more (${rows.length - shown} left)`;
      more.addEventListener('click', () => {
        const first = shown;
        shown += PAGE;
        drawList(d, rows);
        dynamicResults.querySelectorAll<HTMLAnchorElement>('.record-item-title a')[first]?.focus();
      });
      parts.push(more);
    }
    dynamicResults.replaceChildren(...parts);
  }

  function item(d: BrowseData, [id, date, title, isAgent, facets, badges]: Row): HTMLLIElement {
    const li = document.createElement('li');
    li.className = 'record-item';
    const h = document.createElement('h2');
    h.className = 'record-item-title';
    const a = document.createElement('a');
    a.href = `${recordBase}${encodeURIComponent(id)}/`;
    if (isAgent) {
      const bdi = document.createElement('bdi');
      bdi.textContent = title;
      a.append(bdi);
    } else a.textContent = title;
    h.append(a);
    const meta = document.createElement('p');
    meta.className = 'record-item-meta';
    const code = document.createElement('code');
    code.className = 'record-item-id';
    code.textContent = id;
    meta.append(code);
    if (date) {
      const time = document.createElement('time');
      time.dateTime = date;
      time.textContent = date;
      meta.append(' · ', time);
    }
    for (const i of [0, 1]) {
      const f = d.facets[i];
      const v = facets[i]!;
      if (!f || v < 0) continue;
      // Superseded and rejected statuses are shown as warnings, as in the built lists.
      if (f.key === 'archive_status' && (f.values[v] === 'superseded' || f.values[v] === 'rejected')) {
        const span = document.createElement('span');
        span.className = 'badge badge-warn';
        span.textContent = f.labels[v] ?? '';
        meta.append(' · ', span);
      } else meta.append(` · ${f.labels[v]}`);
    }
    for (const b of badges) {
      const badge = d.badges[b];
      if (!badge) continue;
      const span = document.createElement('span');
      span.className = `badge badge-${badge[1]}`;
      span.textContent = badge[0];
      meta.append(' ', span);
    }
    li.append(h, meta);
    return li;
  }

  function paragraph(text: string, className: string): HTMLParagraphElement {
    const p = document.createElement('p');
    p.className = className;
    p.textContent = text;
    return p;
  }

  for (const chip of chips) {
    const count = chip.querySelector('.chip-count');
    if (count) count.setAttribute('data-static', count.textContent ?? '');
    // With the script, a value is a toggle button (aria-pressed); its href still opens the value's own page.
    chip.setAttribute('role', 'button');
    chip.addEventListener('keydown', (event) => {
      if (event.key === ' ') {
        event.preventDefault();
        chip.click();
      }
    });
    chip.addEventListener('click', (event) => {
      // Let the browser open the static page in a new tab or window as usual.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      const key = chip.dataset.facet!;
      const value = chip.dataset.value!;
      const next = new Map(state);
      if (next.get(key) === value) next.delete(key);
      else next.set(key, value);
      state = next;
      shown = PAGE;
      history.pushState({ filters: [...state] }, '', urlFor(state));
      void render();
    });
  }
  clear?.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    state = new Map();
    shown = PAGE;
    history.pushState({ filters: [] }, '', browseUrl);
    void render();
  });
  addEventListener('popstate', (event: PopStateEvent) => {
    const saved = (event.state as { filters?: [string, string][] } | null)?.filters;
    state = saved ? new Map(saved) : stateFromLocation();
    shown = PAGE;
    void render();
  });

  markChips();
  if (location.search) void render();
}
