/**
 * What Pagefind reads of a record page (scripts/build-search.ts stages it instead of the page): the page's <html>
 * start tag (its lang picks Pagefind's language and stemmer) and the one element marked data-pagefind-body, in a
 * minimal document. Pagefind then parses about 5 KB instead of the whole page (about 16 KB: the page frame, facts,
 * the record's other fields) and writes the same index (checked byte for byte at 9,899 pages and in
 * tests/build/search-index-cache.test.ts), with a quarter less of its CPU (docs/performance.md#search-index).
 *
 * Pagefind reads more than the body element (pagefind/src/fossick/parser.rs, 1.6): data-pagefind-* attributes
 * anywhere on the page, the first <h1> and the <title> as a default title, the first <img> as a default image. So a
 * page is cut only when none of that can differ: exactly one body element, no data-pagefind attribute and no <img>
 * outside it, and a title given in it (data-pagefind-meta). Otherwise this returns undefined and the caller stages
 * the whole page, which Pagefind reads as before.
 */

/** A start tag at lastIndex: its name and its attributes (quoted values may hold any character but their quote). */
const START_TAG = /<([a-z][a-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/iy;
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
const BODY = 'data-pagefind-body';

/** Where the element that carries data-pagefind-body starts and ends (its end tag included), when exactly one does. */
function pagefindBody(html: string): { start: number; end: number } | undefined {
  const found: { start: number; name: string }[] = [];
  // Each place the name occurs: on a tag as an attribute, or in text or an attribute value (not a body then).
  for (let at = html.indexOf(BODY); at >= 0; at = html.indexOf(BODY, at + BODY.length)) {
    START_TAG.lastIndex = html.lastIndexOf('<', at);
    const tag = START_TAG.lastIndex >= 0 ? START_TAG.exec(html) : null;
    if (!tag || START_TAG.lastIndex <= at) continue;
    if ([...tag[2]!.matchAll(ATTRIBUTE)].some((a) => a[1]!.toLowerCase() === BODY)) found.push({ start: tag.index, name: tag[1]!.toLowerCase() });
  }
  if (found.length !== 1) return undefined;
  const { start, name } = found[0]!;
  // Same-name elements nest; count them to the matching end tag (text is escaped, so "<name" is markup).
  const tags = new RegExp(`<(/?)${name}(?=[\\s>/])`, 'gi');
  tags.lastIndex = start;
  let depth = 0;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) {
      const end = html.indexOf('>', m.index);
      return end < 0 ? undefined : { start, end: end + 1 };
    }
  }
  return undefined;
}

/** A data-pagefind-meta attribute value that names "title" (e.g. "title", "id, title", "title:Text"). */
const TITLE_META = /data-pagefind-meta\s*=\s*(?:"(?:[^"]*,)?\s*title\s*[,:"]|'(?:[^']*,)?\s*title\s*[,:']|title[\s>])/i;

export function searchStagedPage(html: string): string | undefined {
  const htmlTag = /<html(?:\s[^>]*)?>/i.exec(html)?.[0];
  const found = pagefindBody(html);
  if (!htmlTag || !found) return undefined;
  const body = html.slice(found.start, found.end);
  const outside = html.slice(0, found.start) + html.slice(found.end);
  // A title excluded with its element (data-pagefind-ignore="all") would leave Pagefind to the page's <h1>.
  if (/data-pagefind|<img[\s>/]/i.test(outside) || !TITLE_META.test(body) || /data-pagefind-ignore\s*=\s*["']?all/i.test(body)) return undefined;
  return `<!doctype html>${htmlTag}<head><meta charset="utf-8"></head><body>${body}</body></html>`;
}
