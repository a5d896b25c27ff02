/**
 * The search page's filters (src/pages/search.astro): for each facet the search index can filter on, the readable
 * labels of every value the schema allows, in the facet's order (the index's filters hold the labels:
 * src/site/render/record-page/search-document.ts). Read from the schema, not the archive, so that Astro's pages read
 * nothing from the archive and a build can make them beside the archive's, or before it, in a process of their own
 * (scripts/build.ts). In the browser the search script keeps the values some record has (src/site/client/filter-options.ts).
 */
import { FACETS } from './facets.ts';
import { valueLabel } from './labels.ts';

/** The facets the search page filters on. */
export const SEARCH_FACETS: readonly string[] = ['record_kind', 'archive_status', 'verification_level'];

export interface SearchFilter {
  key: string;
  label: string;
  /** The labels of the values the schema allows, in the facet's order. */
  values: string[];
}

export function searchFilters(): SearchFilter[] {
  return FACETS.filter((facet) => SEARCH_FACETS.includes(facet.key)).map((facet) => ({
    key: facet.key,
    label: facet.label,
    values: facet.values.map((value) => valueLabel(facet.key, value)),
  }));
}

