/**
 * The search page's filter options as the search index has them. The page offers every value the schema allows
 * (src/site/model/search-filters.ts: Astro's pages read nothing from the archive); once index.json is in, each filter
 * keeps the values some record has. A module of its own, free of imports, so that the search script's bundle stays small.
 */

/**
 * `offered` (the page's values, in the facet's order) that the index has, then those the index has that the page
 * does not offer (a value outside the schema's list, which facetCounts also puts last), in the index's order. `kept`
 * (the value the URL selects) stays if the page or the index has it, so that a shared search is not changed silently.
 */
export function syncFilterOptions(offered: readonly string[], indexed: readonly string[], kept?: string): string[] {
  const has = new Set(indexed);
  const known = new Set(offered);
  return [...offered.filter((v) => has.has(v) || v === kept), ...indexed.filter((v) => !known.has(v))];
}

/**
 * Makes a `<select>`'s options (all but the first, "Any") those of syncFilterOptions; selects `fromUrl` if it only now
 * became an option. Whether the selection changed.
 */
export function syncSelect(select: HTMLSelectElement, indexed: readonly string[], fromUrl: string | null): boolean {
  const offered = [...select.options].slice(1).map((o) => o.value);
  const wanted = syncFilterOptions(offered, indexed, fromUrl ?? undefined);
  const keep = new Set(wanted);
  for (const option of [...select.options].slice(1)) if (!keep.has(option.value)) option.remove();
  for (const value of wanted) if (!offered.includes(value)) select.add(new Option(value, value));
  if (fromUrl !== null && select.value === '' && keep.has(fromUrl)) {
    select.value = fromUrl;
    return true;
  }
  return false;
}
