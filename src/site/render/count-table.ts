/**
 * A table of record counts per facet value (the home page's "By archive status" and "By record kind"), each value
 * linking to its browse page: the records counted (withdrawn ones left out, as in every count) and, when some are
 * withdrawn, the records listed on the value's page beside it, so that a count and the list it links to never seem
 * to disagree.
 *
 * A string function, like the record list (record-list.ts): the markup src/components/CountTable.astro made, with the
 * whitespace Astro's compressHTML left (one space where the template had a line break), so that the home page made
 * here (home-page.ts) is byte for byte the one Astro built. Every value's label is escaped.
 */
import { valueSlug } from '../model/facets.ts';
import type { SitePaths } from '../model/paths.ts';
import { attribute, text } from './escape.ts';

export interface CountTable {
  caption: string;
  /** Column heading for the values, e.g. "Archive status". */
  heading: string;
  /** The facet the values belong to (the browse URL segment). */
  facet: string;
  /** Per value: the records counted (withdrawn ones left out) and listed (withdrawn ones included). */
  counts: readonly { value: string | null; label: string; count: number; listed: number }[];
}

export function countTableHtml({ caption, heading, facet, counts }: CountTable, paths: SitePaths): string {
  const anyWithdrawn = counts.some((c) => c.listed !== c.count);
  const rows = counts.map(
    (c) =>
      `<tr> <td> <a href="${attribute(paths.browse(facet, valueSlug(c.value)))}">${text(c.label)}</a> </td> ` +
      `<td class="num">${c.count}</td> ${anyWithdrawn ? `<td class="num">${c.listed}</td>` : ''} </tr>`,
  );
  return (
    `<div class="table-wrap" role="region" aria-label="${attribute(caption)}" tabindex="0"> <table> <caption>${text(caption)}</caption> ` +
    `<thead> <tr> <th scope="col">${text(heading)}</th> <th scope="col" class="num">Counted</th> ` +
    `${anyWithdrawn ? '<th scope="col" class="num">Listed (withdrawn included)</th>' : ''} </tr> </thead> ` +
    `<tbody> ${rows.join('')} </tbody> </table> </div>`
  );
}
