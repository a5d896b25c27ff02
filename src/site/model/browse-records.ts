/**
 * /browse/records.json: the compact data the browse filters combine in the browser (src/site/client/browse-filter.ts).
 * One row per record, newest first by order of arrival, as the listing pages show them (listing-pages.ts):
 * [id, archive date or "", title, title is the agent's name (1/0), facet value indexes (−1 = not stated), badge
 * indexes]. Labels come from the build, so the browser needs no vocabulary of its own. Not an API for agents (that is
 * /api/index.json); its shape may change with the site. It changes with every append: one file, so that the listing
 * pages need not (their filter counts come from it, with JavaScript).
 */
import type { ArchiveModel } from './site-model.ts';
import { FACETS, facetValueLabel } from './facets.ts';

export function browseRecordsJson(model: Pick<ArchiveModel, 'summaries' | 'arrivals'>): string {
  const values = FACETS.map((f) => {
    const present = new Set(model.summaries.map((s) => s.facets[f.key]).filter((v): v is string => v !== null));
    return [...f.values.filter((v) => present.has(v)), ...[...present].filter((v) => !f.values.includes(v)).sort()];
  });
  const index = values.map((list) => new Map(list.map((v, i) => [v, i])));
  const badges: [string, string][] = [];
  const badgeIndex = new Map<string, number>();
  const rows = [...model.arrivals].reverse().map((s) => [
    s.id,
    s.date ?? '',
    s.title,
    s.titleIsAgent ? 1 : 0,
    FACETS.map((f, i) => {
      const v = s.facets[f.key];
      return v === null || v === undefined ? -1 : index[i]!.get(v)!;
    }),
    s.badges.map((b) => {
      const key = `${b.tone}\u0000${b.text}`;
      let i = badgeIndex.get(key);
      if (i === undefined) {
        i = badges.length;
        badges.push([b.text, b.tone]);
        badgeIndex.set(key, i);
      }
      return i;
    }),
  ]);
  const body = {
    facets: FACETS.map((f, i) => ({
      key: f.key,
      label: f.label,
      values: values[i]!,
      labels: values[i]!.map((v) => facetValueLabel(f.key, v)),
    })),
    notStatedLabel: facetValueLabel('', null),
    badges,
    records: rows,
  };
  return JSON.stringify(body);
}
