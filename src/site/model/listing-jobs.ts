/**
 * Every listing page of the site as data: /browse/ (all records) and /browse/<facet>/<value>/ (one facet value), each
 * cut into pages that keep their records as the archive grows (listing-pages.ts). A job is everything its page is
 * made from, so the page is a pure function of it (src/site/render/listing-document.ts), rendered on the record-page
 * threads beside Astro and kept in the page cache under the job's hash (src/site/build/3-record-pages-worker.ts):
 * an append changes a few jobs, and only their pages are rendered again.
 */
import type { FacetName } from '../../core/publish/facets.ts';
import type { BrowseView } from '../render/browse-view.ts';
import type { RecordSummary } from './archive-model.ts';
import { FACET_DESCRIPTIONS, FACETS, facetValueLabel, facetValueMeaning, groupByFacet } from './facets.ts';
import { listingPages, type ListingPage, type PagePlace } from './listing-pages.ts';
import { sitePaths } from './paths.ts';
import type { ArchiveModel } from './site-model.ts';

export interface ListingJob {
  /** The page's path from the site's root, without the base: "browse/", "browse/kind/echo/3/". */
  path: string;
  title: string;
  description: string;
  /** The facet value listed (its pages' addresses), or none for all records. */
  listing?: { facet: string; slug: string };
  /** The page's body but its links to other pages of the listing, which the renderer makes from `listing`. */
  view: Omit<BrowseView, 'href'>;
}

const ROOT = sitePaths('/');

/** The site path (no base) of a page of a listing. */
export function listingPath(listing: ListingJob['listing'], at: PagePlace): string {
  return ROOT.browse(listing?.facet, listing?.slug, at).slice(1);
}

/** Every listing page of the archive: all records first, then each facet's values in the facets' order. */
export function listingJobs(model: Pick<ArchiveModel, 'arrivals' | 'summary' | 'facetCounts'>, pageSize: number): ListingJob[] {
  // A job holds only what its page shows, so that an append leaves the jobs (and cache keys) of the pages it does not
  // change as they were: only the all-records front page shows the filters' counts (browse-view.ts), and only a front
  // page its listing's length; elsewhere both are 0.
  const counts = model.facetCounts;
  const countless = counts.map(({ facet, values }) => ({ facet, values: values.map((v) => ({ ...v, count: 0 })) }));
  const lengths = (page: ListingPage<RecordSummary>, total: number, withdrawn: number) => (page.at === 'front' ? { total, withdrawn } : { total: 0, withdrawn: 0 });
  const jobs: ListingJob[] = listingPages(model.arrivals, pageSize).map((page) => ({
    path: listingPath(undefined, page.at),
    title: page.at === 'front' ? 'All records' : `All records, page ${page.at}`,
    description: 'Every Echo record in the archive, newest first, with filters by kind, status, context depth, assessment, verification level and independence.',
    view: { heading: 'All records', page, ...lengths(page, model.arrivals.length, model.summary.withdrawn), counts: page.at === 'front' ? counts : countless },
  }));
  for (const facet of FACETS) {
    // Grouping keeps the order of arrival.
    for (const [slug, group] of groupByFacet<RecordSummary>(model.arrivals, (s) => s.facets[facet.key] ?? null)) {
      const listing = { facet: facet.key, slug };
      const withdrawn = group.items.filter((s) => s.withdrawn).length;
      const valueText = facetValueLabel(facet.key, group.value);
      const heading = `${facet.label}: ${valueText}`;
      const intro = facetValueMeaning(facet.key, group.value) ?? FACET_DESCRIPTIONS[facet.key as FacetName];
      for (const page of listingPages(group.items, pageSize)) {
        jobs.push({
          path: listingPath(listing, page.at),
          title: page.at === 'front' ? heading : `${heading}, page ${page.at}`,
          description: `Echo records whose ${facet.label.toLowerCase()} is ${valueText}, newest first.`,
          listing,
          view: { heading, intro, page, ...lengths(page, group.items.length, withdrawn), counts: countless, current: { facet: facet.key, slug, value: group.value } },
        });
      }
    }
  }
  return jobs;
}
