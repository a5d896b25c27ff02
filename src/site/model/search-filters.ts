/**
 * The search page's filters (src/pages/search.astro): for each facet the search index can filter on, the readable
 * labels of the values the archive has (the index's filters hold the labels: src/site/render/record-page/search-document.ts).
 * The one thing Astro's pages read from the archive, so it is part of what decides whether Astro's last output can be
 * kept (src/site/build/cache/astro-output.ts).
 */
import type { ArchiveModel } from './site-model.ts';

/** The facets the search page filters on. */
export const SEARCH_FACETS: readonly string[] = ['record_kind', 'archive_status', 'verification_level'];

export interface SearchFilter {
  key: string;
  label: string;
  /** The labels of the values some record has ("not stated" left out), in the facet's order. */
  values: string[];
}

export function searchFilters(model: Pick<ArchiveModel, 'facetCounts'>): SearchFilter[] {
  return model.facetCounts
    .filter((c) => SEARCH_FACETS.includes(c.facet.key))
    .map(({ facet, values }) => ({ key: facet.key, label: facet.label, values: values.filter((v) => v.value !== null).map((v) => v.label) }));
}
