/**
 * The browse filters: for each facet, its values (with how many records have each, where a page shows counts); each
 * value a link to its own static page (/browse/<facet>/<value>/), which browse-filter.ts turns into combinable
 * toggles. A string function (see record-list.ts for why): every browse page carries all of it.
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

export interface FacetFiltersOptions {
  /**
   * Show how many records have each value (default true). Counts change with every record added, so only pages that
   * change then anyway show them (browse-view.ts); without them a chip has no count until the filter script fills one in.
   */
  counts?: boolean | undefined;
}

export function facetFiltersHtml(counts: readonly FacetCounts[], paths: SitePaths, current?: CurrentFacetValue, { counts: showCounts = true }: FacetFiltersOptions = {}): string {
  const sections = filtersShown(counts, current).map(({ facet, values }) => {
    const chips = values.map((v) => {
      const selected = current?.facet === facet.key && current.slug === v.slug;
      return (
        `<li><a class="chip" href="${attribute(paths.browse(facet.key, v.slug))}" data-facet="${attribute(facet.key)}" ` +
        // "not stated" has no value: a bare data-value (empty), as Astro writes an empty attribute.
        `${v.value ? `data-value="${attribute(v.value)}"` : 'data-value'}${selected ? ' aria-current="page"' : ''}>` +
        `<span class="chip-label">${text(v.label)}</span>${showCounts ? ` <span class="chip-count">${v.count}</span>` : ''}</a></li>`
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
    `<p class="muted small filters-help">${showCounts ? 'Numbers are records listed, withdrawn ones included.' : 'Each group\'s name opens how many records have each of its values.'} ` +
    'Values chosen in several groups combine (with JavaScript; without it, each value opens its own page).</p>' +
    sections.join('') +
    '</aside>'
  );
}
