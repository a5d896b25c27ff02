/**
 * One page of a record listing (all records, or those with one facet value) with the filters beside it, as one
 * string: heading, summary line, the record list, its pagination and the filters. The Astro component
 * (src/components/BrowseView.astro) writes it inside the page frame and adds the filter script.
 *
 * Why a string function: there are about 1,600 listing pages at 10,000 records and 16,000 at 100,000, and every
 * append changes all of them (each shows the archive-wide counts), so their cost is paid on every build. As a tree
 * of Astro components (a list, the pagination, the filters) a page took 0.85 ms of the main thread's CPU at 10,000
 * records, as one string 0.74 ms, of which about 0.6 ms is Astro's own per-page work (docs/performance.md, "Site
 * build", step 12).
 */
import type { RecordSummary } from '../model/archive-model.ts';
import type { FacetCounts } from '../model/facets.ts';
import type { SitePaths } from '../model/paths.ts';
import { attribute, text } from './escape.ts';
import { facetFiltersHtml, type CurrentFacetValue } from './facet-filters.ts';
import { paginationHtml } from './pagination.ts';
import { recordListHtml } from './record-list.ts';

/** The part of Astro's paginate() page a listing shows (its Page type has these fields). */
export interface ListingPage {
  /** The records of this page, newest first. */
  data: readonly RecordSummary[];
  /** Records in the whole listing. */
  total: number;
  /** Index of this page's first and last record in the listing. */
  start: number;
  end: number;
  currentPage: number;
  lastPage: number;
}

export interface BrowseView {
  heading: string;
  intro?: string | undefined;
  /** This page of the listing, as Astro's paginate() describes it. */
  page: ListingPage;
  /** How many records of the whole listing are withdrawn. */
  withdrawn: number;
  /** URL of page n of this listing. */
  href: (n: number) => string;
  /** The archive-wide facet counts (the filters). */
  counts: readonly FacetCounts[];
  /** The facet value this listing is limited to, if any. */
  current?: (CurrentFacetValue & { value: string | null }) | undefined;
}

// Every listing page of a build shows the same counts; only the chip marked current differs, and a build has about
// 60 facet values. So the filters are written once per value, not once per page.
const filtersMade = new WeakMap<readonly FacetCounts[], Map<string, string>>();

function filtersHtml(counts: readonly FacetCounts[], paths: SitePaths, current: CurrentFacetValue | undefined): string {
  let made = filtersMade.get(counts);
  if (!made) filtersMade.set(counts, (made = new Map()));
  const key = `${paths.base}\n${current ? `${current.facet}\n${current.slug}` : ''}`;
  let html = made.get(key);
  if (html === undefined) made.set(key, (html = facetFiltersHtml(counts, paths, current && { facet: current.facet, slug: current.slug })));
  return html;
}

function summaryText({ page: { total, start, end, currentPage, lastPage }, withdrawn }: BrowseView): string {
  return (
    `${total} record${total === 1 ? '' : 's'}` +
    (withdrawn > 0 ? `, ${withdrawn} of them withdrawn (listed, not counted)` : '') +
    ', newest first.' +
    (lastPage > 1 ? ` Showing ${start + 1}–${end + 1}, page ${currentPage} of ${lastPage}.` : '')
  );
}

export function browseViewHtml(view: BrowseView, paths: SitePaths): string {
  const { heading, intro, page, href, counts, current } = view;
  return (
    `<div class="browse" data-browse data-records-url="${attribute(paths.site('browse/records.json'))}" ` +
    `data-browse-url="${attribute(paths.site('browse/'))}" data-record-base="${attribute(paths.site('records/'))}"` +
    // As Astro writes them: no attribute without a current value, a bare one for an empty value ("not stated").
    (current ? ` data-current-facet="${attribute(current.facet)}"${current.value ? ` data-current-value="${attribute(current.value)}"` : ' data-current-value'}` : '') +
    `><div class="browse-main"><h1 id="browse-heading">${text(heading)}</h1>` +
    (intro ? `<p class="lead">${text(intro)}</p>` : '') +
    `<p class="browse-summary" data-summary><span data-summary-text>${summaryText(view)}</span>` +
    '<a class="jump-filters" href="#filters">Filters</a></p>' +
    `<div data-static-results>${recordListHtml(page.data, paths, { level: 2 })}${paginationHtml(page.currentPage, page.lastPage, href)}</div>` +
    '<div data-dynamic-results aria-live="polite" hidden></div></div>' +
    filtersHtml(counts, paths, current) +
    '</div>'
  );
}
