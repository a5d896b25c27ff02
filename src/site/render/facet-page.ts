/**
 * A facet page's whole HTML document (/browse/<facet>/index.html): the values of one facet, what each means (a
 * column only when some value's meaning is not said by its label: facetValueMeaning), the value as the record holds it,
 * and how many records have it, each linking to the value's listing. The counts include withdrawn records (listed
 * and marked on the listings, left out of the home page's counts), and records without a value are counted under
 * their own row, so the numbers add up to every record listed.
 *
 * Why not an Astro page: its counts change with every append, and made here by a plain function of the archive's
 * model (facetCounts, src/site/model/facets.ts) it lets a build whose code is unchanged skip `astro build`
 * (src/site/render/archive-pages.ts). The bytes are those src/pages/browse/[facet]/index.astro made inside
 * src/layouts/Base.astro: the page frame (page-frame.ts) around the content, with the whitespace Astro's compressHTML
 * left (one space where the template had a line break, none after the lead paragraph, the closing paragraph's inner
 * line breaks and indentation kept). Every label and value is escaped.
 */
import type { FacetName } from '../../core/publish/facets.ts';
import { FACET_DESCRIPTIONS, facetValueMeaning, NOT_STATED_LABEL, type FacetCounts } from '../model/facets.ts';
import { attribute, text } from './escape.ts';
import { pageHtml, type SiteFrame } from './page-frame.ts';

export function facetDocument(counts: FacetCounts, frame: SiteFrame): string {
  const { paths } = frame;
  const { facet, values } = counts;
  const label = text(facet.label);
  const lower = facet.label.toLowerCase();
  const description: string | undefined = FACET_DESCRIPTIONS[facet.key as FacetName];
  const meanings = values.some((v) => facetValueMeaning(facet.key, v.value) !== undefined);
  const rows = values.map(
    (v) =>
      `<tr> <td> <a href="${attribute(paths.browse(facet.key, v.slug))}">${text(v.label)}</a> </td> ` +
      `${meanings ? `<td>${text(facetValueMeaning(facet.key, v.value) ?? '')}</td>` : ''} ` +
      `<td>${v.value === null ? '<span class="muted">(field absent)</span>' : `<code>${text(v.value)}</code>`}</td> <td class="num">${v.count}</td> </tr>`,
  );
  const notStated = values.find((v) => v.value === null)?.label ?? NOT_STATED_LABEL;
  const main =
    ` <nav class="breadcrumb" aria-label="Breadcrumb"> <a href="${attribute(paths.browse())}">Records</a> <span aria-hidden="true">/</span> ` +
    `<span aria-current="page">${label}</span> </nav> <h1>${label}</h1> ` +
    (description ? `<p class="lead">${text(description)}</p>` : '') +
    `<div class="table-wrap" role="region" aria-label="${attribute(`Records by ${lower}`)}" tabindex="0"> <table> ` +
    `<caption class="visually-hidden">Records by ${text(lower)}</caption> <thead> <tr> <th scope="col">${label}</th> ` +
    `${meanings ? '<th scope="col">What it means</th>' : ''} <th scope="col">Value in the record</th> <th scope="col" class="num">Records listed</th> </tr> </thead> ` +
    `<tbody> ${rows.join('')} </tbody> </table> </div> <p class="muted small">\n` +
    "Records listed include withdrawn records, which are listed (and marked) but left out of the home page's counts.\n" +
    `    Records without a value are counted under "${text(notStated)}" (when there are any), so the\n` +
    '    numbers add up to every record listed.\n' +
    '</p> ';
  const meta = {
    title: facet.label,
    description: `Echo records by ${lower}.`,
    pathname: paths.site(`browse/${facet.key}/`),
    section: 'browse' as const,
  };
  return pageHtml(frame, meta, main);
}
