/**
 * The browse filters: for each facet, its values with how many records have each; each value a link to its own
 * static page (/browse/<facet>/<value>/), which browse-filter.ts turns into combinable toggles. A string function
 * (see record-list.ts for why): every browse page carries all of it.
 */
import type { FacetCounts } from '../model/facets.ts';
import type { SitePaths } from '../model/paths.ts';
import { attribute, text } from './escape.ts';

/** The facet value a page is limited to, if any. */
export interface CurrentFacetValue {
  facet: string;
  slug: string;
}

/**
 * A facet whose records all have one value (every record "not sent through the gateway", say) filters nothing: it is
 * left out of the filters, unless a page is limited to it. Its own page (/browse/<facet>/) still lists it.
 */
export function filtersShown(counts: readonly FacetCounts[], current?: CurrentFacetValue): FacetCounts[] {
  return counts.filter(({ facet, values }) => values.length > 1 || current?.facet === facet.key);
}

export function facetFiltersHtml(counts: readonly FacetCounts[], paths: SitePaths, current?: CurrentFacetValue): string {
  const sections = filtersShown(counts, current).map(({ facet, values }) => {
    const chips = values.map((v) => {
      const selected = current?.facet === facet.key && current.slug === v.slug;
      return (
        `<li><a class="chip" href="${attribute(paths.browse(facet.key, v.slug))}" data-facet="${attribute(facet.key)}" ` +
        // "not stated" has no value: a bare data-value (empty), as Astro writes an empty attribute.
        `${v.value ? `data-value="${attribute(v.value)}"` : 'data-value'}${selected ? ' aria-current="page"' : ''}>` +
        `<span class="chip-label">${text(v.label)}</span> <span class="chip-count">${v.count}</span></a></li>`
      );
    });
    return (
      `<section class="facet" aria-labelledby="facet-${attribute(facet.key)}"><h3 id="facet-${attribute(facet.key)}">` +
      `<a href="${attribute(paths.browse() + `${facet.key}/`)}" class="facet-name">${text(facet.label)}</a></h3>` +
      `<ul class="chips" data-facet="${attribute(facet.key)}">${chips.join('')}</ul></section>`
    );
  });
  return (
    '<aside id="filters" class="browse-filters" aria-labelledby="filters-heading"><div class="filters-head">' +
    `<h2 id="filters-heading">Filter</h2><a class="clear-filters" href="${attribute(paths.browse())}" data-clear${current === undefined ? ' hidden' : ''}>Clear filters</a></div>` +
    '<p class="muted small filters-help">Numbers are records listed, withdrawn ones included. Values chosen in several groups combine (with JavaScript; without it, each value opens its own page).</p>' +
    sections.join('') +
    '</aside>'
  );
}
