/**
 * Previous / numbered / next links for a paginated list: first, last, and two either side of the current page, gaps
 * shown as an ellipsis. A string function (see browse-view.ts for why); the markup is what the Astro component it
 * replaced wrote, byte for byte.
 */
import { attribute } from './escape.ts';

/** The page numbers shown around `current` of `last`, with 'gap' where numbers are left out. */
export function shownPages(current: number, last: number): (number | 'gap')[] {
  const shown: (number | 'gap')[] = [];
  for (let n = 1; n <= last; n++) {
    if (n === 1 || n === last || Math.abs(n - current) <= 2) shown.push(n);
    else if (shown.at(-1) !== 'gap') shown.push('gap');
  }
  return shown;
}

/** The navigation for page `current` of `last` (nothing for a single page); `href(n)` is the URL of page n. */
export function paginationHtml(current: number, last: number, href: (n: number) => string, label = 'Pages'): string {
  if (last <= 1) return '';
  const numbers = shownPages(current, last).map((n) =>
    n === 'gap'
      ? '<li aria-hidden="true" class="gap">…</li>'
      : n === current
        ? `<li><span aria-current="page" class="current"><span class="visually-hidden">Page </span>${n}</span></li>`
        : `<li><a href="${attribute(href(n))}"><span class="visually-hidden">Page </span>${n}</a></li>`,
  );
  return (
    `<nav class="pagination" aria-label="${attribute(label)}"><ul><li>` +
    (current > 1 ? `<a href="${attribute(href(current - 1))}" rel="prev">← Newer</a>` : '<span class="disabled" aria-hidden="true">← Newer</span>') +
    `</li>${numbers.join('')}<li>` +
    (current < last ? `<a href="${attribute(href(current + 1))}" rel="next">Older →</a>` : '<span class="disabled" aria-hidden="true">Older →</span>') +
    '</li></ul></nav>'
  );
}
