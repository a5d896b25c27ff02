/**
 * The navigation of a listing page (src/site/model/listing-pages.ts): "← Newer" and "Older →", and the pages it
 * names (the front page as "Newest", numbered pages by number), gaps shown as an ellipsis. A string function (see
 * browse-view.ts for why).
 */
import type { ListingNavigation, PagePlace } from '../model/listing-pages.ts';
import { attribute } from './escape.ts';

function placeText(at: PagePlace): string {
  return at === 'front' ? 'Newest' : `<span class="visually-hidden">Page </span>${at}`;
}

/** The navigation of the page at `at` (nothing for a listing on one page); `href(at)` is the URL of a page. */
export function paginationHtml(at: PagePlace, { newer, older, shown }: ListingNavigation, href: (at: PagePlace) => string, label = 'Pages'): string {
  if (newer === null && older === null) return '';
  const places = shown.map((p) =>
    p === 'gap'
      ? '<li aria-hidden="true" class="gap">…</li>'
      : p === at
        ? `<li><span aria-current="page" class="current">${placeText(p)}</span></li>`
        : `<li><a href="${attribute(href(p))}">${placeText(p)}</a></li>`,
  );
  return (
    `<nav class="pagination" aria-label="${attribute(label)}"><ul><li>` +
    (newer !== null ? `<a href="${attribute(href(newer))}" rel="prev">← Newer</a>` : '<span class="disabled" aria-hidden="true">← Newer</span>') +
    `</li>${places.join('')}<li>` +
    (older !== null ? `<a href="${attribute(href(older))}" rel="next">Older →</a>` : '<span class="disabled" aria-hidden="true">Older →</span>') +
    '</li></ul></nav>'
  );
}
