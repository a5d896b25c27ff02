/**
 * One page of a record listing (all records, or those with one facet value) with the filters beside it, as one
 * string: heading, summary line, the record list, its navigation and the filters. listing-document.ts writes it inside
 * the page frame and adds the filter script.
 *
 * What a page says is chosen so that appending a record changes few pages (issue 27; the pages themselves:
 * src/site/model/listing-pages.ts): a numbered page says which records it holds, not how many the listing has, and
 * shows no counts in its filters; a front page, which changes with its listing anyway, says the listing's total.
 * Only the all-records front page, which changes with every append, shows the archive-wide count of each filter value
 * (a facet value's front page with them would change with every append too). Counts otherwise live on the pages
 * about counts: the home page and /browse/<facet>/.
 *
 * Why a string function: there are about 1,600 listing pages at 10,000 records and 16,000 at 100,000. They are
 * rendered beside Astro on the record-page threads and kept in the page cache (src/site/build/3-record-pages.ts), so
 * a build renders only those whose records changed (docs/performance.md, "Site build", step 12).
 */
import type { RecordSummary } from '../model/archive-model.ts';
import type { FacetCounts } from '../model/facets.ts';
import type { ListingPage, PagePlace } from '../model/listing-pages.ts';
import type { SitePaths } from '../model/paths.ts';
import { attribute, text } from './escape.ts';
import { facetFiltersHtml, type CurrentFacetValue } from './facet-filters.ts';
import { paginationHtml } from './pagination.ts';
import { recordListHtml } from './record-list.ts';

export interface BrowseView {
  heading: string;
  intro?: string | undefined;
  /** This page of the listing. */
  page: ListingPage<RecordSummary>;
  /** Records in the whole listing, and how many of them are withdrawn (said on its front page only). */
  total: number;
  withdrawn: number;
  /** URL of a page of this listing. */
  href: (at: PagePlace) => string;
  /** The archive-wide facet counts: which values the filters offer (and, on the all-records front page, how many). */
  counts: readonly FacetCounts[];
  /** The facet value this listing is limited to, if any. */
  current?: (CurrentFacetValue & { value: string | null }) | undefined;
}

// Every listing page of a build offers the same values; only the chip marked current and whether counts show
// differ, and a build has about 60 facet values. So the filters are written once per value, not once per page.
const filtersMade = new WeakMap<readonly FacetCounts[], Map<string, string>>();

function filtersHtml(counts: readonly FacetCounts[], paths: SitePaths, current: CurrentFacetValue | undefined, withCounts: boolean): string {
  let made = filtersMade.get(counts);
  if (!made) filtersMade.set(counts, (made = new Map()));
  const key = `${paths.base}\n${withCounts}\n${current ? `${current.facet}\n${current.slug}` : ''}`;
  let html = made.get(key);
  if (html === undefined) made.set(key, (html = facetFiltersHtml(counts, paths, current && { facet: current.facet, slug: current.slug }, { counts: withCounts })));
  return html;
}

const records = (n: number) => `${n} record${n === 1 ? '' : 's'}`;
const withdrawnText = (n: number) => (n > 0 ? `, ${n} of them withdrawn (listed, not counted)` : '');

function summaryText({ page, total, withdrawn }: BrowseView): string {
  if (page.at !== 'front') {
    // Only what this page holds: the same words for as long as the page exists.
    return `Records ${page.from}–${page.to} in order of arrival (1 is the oldest)${withdrawnText(page.items.filter((s) => s.withdrawn).length)}, newest first.`;
  }
  return (
    `${records(total)}${withdrawnText(withdrawn)}, newest first.` +
    (page.navigation.older !== null ? ` Here the newest ${page.items.length} (${page.from}–${page.to} in order of arrival); older ones on numbered pages, 1 the oldest.` : '')
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
    `<div data-static-results>${recordListHtml(page.items, paths, { level: 2 })}${paginationHtml(page.at, page.navigation, href)}</div>` +
    '<div data-dynamic-results aria-live="polite" hidden></div></div>' +
    filtersHtml(counts, paths, current, page.at === 'front' && current === undefined) +
    '</div>'
  );
}
