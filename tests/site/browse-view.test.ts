/**
 * A listing page's body as one string (src/site/render/browse-view.ts) and its pagination
 * (src/site/render/pagination.ts): what the summary line says, which page numbers show, the current facet value, the
 * filters written once per value and still marking the right one, and hostile record text kept as text. (The markup is
 * byte for byte what the Astro components wrote before; that was checked by building and diffing whole sites, see
 * docs/performance.md, "Site build".)
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DomUtils, parseDocument } from 'htmlparser2';
import { summarizeRecord } from '../../src/site/model/archive-model.ts';
import { facetCounts } from '../../src/site/model/facets.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { browseViewHtml, type BrowseView, type ListingPage } from '../../src/site/render/browse-view.ts';
import { attribute } from '../../src/site/render/escape.ts';
import { facetFiltersHtml } from '../../src/site/render/facet-filters.ts';
import { paginationHtml, shownPages } from '../../src/site/render/pagination.ts';
import { REMOVE, echoWith, validEcho } from '../helpers/records.ts';

const paths = sitePaths('/');
const doc = (html: string) => parseDocument(html);
const all = (html: string, name: string) => DomUtils.getElementsByTagName(name, doc(html).children);
const byAttr = (html: string, name: string) => DomUtils.findAll((e) => e.attribs[name] !== undefined, doc(html).children);
const summary = (id: string, record: Record<string, unknown>) => summarizeRecord({ id, path: `2026/${id}.json`, archiveDate: '2026-03-01', sha256: '0'.repeat(64), record });

const records = [validEcho(), echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'x' }), echoWith({ '/assessment_state': REMOVE })];
const counts = facetCounts(records);
const view = (over: Partial<BrowseView> = {}, page: Partial<ListingPage> = {}): BrowseView => ({
  heading: 'All records',
  withdrawn: 0,
  href: (n) => paths.browse(undefined, undefined, n),
  counts,
  ...over,
  page: { data: [summary('echo-a', validEcho())], total: 1, start: 0, end: 0, currentPage: 1, lastPage: 1, ...page },
});
const summaryText = (html: string) => DomUtils.textContent(byAttr(html, 'data-summary-text')[0]!);

describe('shownPages', () => {
  it('shows the first and last page, two either side of the current one, and one gap for each run left out', () => {
    expect(shownPages(1, 1)).toEqual([1]);
    expect(shownPages(2, 198)).toEqual([1, 2, 3, 4, 'gap', 198]);
    expect(shownPages(100, 198)).toEqual([1, 'gap', 98, 99, 100, 101, 102, 'gap', 198]);
    expect(shownPages(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('for any page of any length: increasing numbers, every number within reach shown, a gap only where numbers are missing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }).chain((last) => fc.tuple(fc.integer({ min: 1, max: last }), fc.constant(last))), ([current, last]) => {
        const shown = shownPages(current, last);
        const numbers = shown.filter((n): n is number => n !== 'gap');
        for (let n = 1; n <= last; n++) expect(numbers.includes(n)).toBe(n === 1 || n === last || Math.abs(n - current) <= 2);
        shown.forEach((n, i) => {
          if (n !== 'gap') return;
          const before = shown[i - 1], after = shown[i + 1];
          expect(typeof before === 'number' && typeof after === 'number' && after - before > 1).toBe(true);
        });
      }),
    );
  });
});

describe('paginationHtml', () => {
  const href = (n: number) => paths.browse('archive_status', 'superseded', n);

  it('writes nothing for a single page', () => {
    expect(paginationHtml(1, 1, href)).toBe('');
    expect(paginationHtml(1, 2, href)).not.toBe('');
  });

  it('links the neighbours and every shown page; the current page and the missing neighbour are not links', () => {
    const first = paginationHtml(1, 5, href);
    expect(all(first, 'a').map((a) => a.attribs.href)).toEqual(['/browse/archive_status/superseded/2/', '/browse/archive_status/superseded/3/', '/browse/archive_status/superseded/5/', '/browse/archive_status/superseded/2/']);
    expect(all(first, 'a').at(-1)!.attribs.rel).toBe('next');
    expect(all(first, 'span').find((s) => s.attribs['aria-current'] === 'page')!.children.map((c) => DomUtils.textContent(c))).toEqual(['Page ', '1']);
    expect(first).toContain('<span class="disabled" aria-hidden="true">← Newer</span>');
    const last = paginationHtml(5, 5, href);
    expect(all(last, 'a')[0]!.attribs).toMatchObject({ href: '/browse/archive_status/superseded/4/', rel: 'prev' });
    expect(last).toContain('<span class="disabled" aria-hidden="true">Older →</span>');
    expect(all(paginationHtml(10, 20, href), 'li').filter((li) => li.attribs.class === 'gap')).toHaveLength(2);
  });

  it('escapes the URLs it is given', () => {
    expect(paginationHtml(1, 2, (n) => `/a?x=1&y="${n}"`)).toContain(`href="${attribute('/a?x=1&y="2"')}"`);
    expect(attribute('/a?x=1&y="2"')).toBe('/a?x=1&amp;y=&quot;2&quot;');
  });
});

describe('browseViewHtml', () => {
  it('says how many records, how many withdrawn, and which of them this page shows', () => {
    expect(summaryText(browseViewHtml(view(), paths))).toBe('1 record, newest first.');
    expect(summaryText(browseViewHtml(view({ withdrawn: 1 }, { total: 21, end: 20 }), paths))).toBe('21 records, 1 of them withdrawn (listed, not counted), newest first.');
    expect(summaryText(browseViewHtml(view({}, { total: 9899, start: 50, end: 99, currentPage: 2, lastPage: 198 }), paths))).toBe(
      '9899 records, newest first. Showing 51–100, page 2 of 198.',
    );
  });

  it('lists the page\u2019s records under h2 headings, with the pagination only when there is more than one page', () => {
    const one = browseViewHtml(view(), paths);
    expect(all(one, 'h2').map((h) => DomUtils.textContent(h))).toContain(summary('echo-a', validEcho()).title);
    expect(all(one, 'nav')).toHaveLength(0);
    expect(all(browseViewHtml(view({}, { lastPage: 3 }), paths), 'nav').map((n) => n.attribs.class)).toEqual(['pagination']);
    expect(browseViewHtml(view({}, { data: [] }), paths)).toContain('<p class="muted">No records.</p>');
  });

  it('names the current facet value for the filter script: none, a value, or "not stated" as an empty value', () => {
    const root = (html: string) => byAttr(html, 'data-browse')[0]!.attribs;
    expect(root(browseViewHtml(view(), paths))).not.toHaveProperty('data-current-facet');
    expect(root(browseViewHtml(view(), paths))).not.toHaveProperty('data-current-value');
    expect(root(browseViewHtml(view({ current: { facet: 'archive_status', slug: 'superseded', value: 'superseded' } }), paths))).toMatchObject({
      'data-current-facet': 'archive_status',
      'data-current-value': 'superseded',
    });
    const notStated = browseViewHtml(view({ current: { facet: 'assessment_state', slug: 'not-stated', value: null } }), paths);
    expect(root(notStated)['data-current-value']).toBe('');
    expect(notStated).toContain(' data-current-value>');
  });

  it('carries the filters as facetFiltersHtml writes them for this page, the right value marked, however often asked', () => {
    const values = [undefined, ...counts.flatMap((c) => c.values.map((v) => ({ facet: c.facet.key, slug: v.slug, value: v.value })))];
    for (let round = 0; round < 2; round++) {
      for (const current of values) {
        const html = browseViewHtml(view({ current }), paths);
        expect(html).toContain(facetFiltersHtml(counts, paths, current && { facet: current.facet, slug: current.slug }));
        const marked = all(html, 'a').filter((a) => a.attribs['aria-current'] === 'page');
        expect(marked.map((a) => a.attribs.href)).toEqual(current ? [paths.browse(current.facet, current.slug)] : []);
      }
    }
  });

  it('links under the base path', () => {
    const under = sitePaths('/archive/');
    const html = browseViewHtml(view({ href: (n) => under.browse(undefined, undefined, n) }, { lastPage: 2 }), under);
    for (const a of all(html, 'a')) if (a.attribs.href !== '#filters') expect(a.attribs.href!.startsWith('/archive/')).toBe(true);
    expect(byAttr(html, 'data-browse')[0]!.attribs).toMatchObject({ 'data-records-url': '/archive/browse/records.json', 'data-browse-url': '/archive/browse/', 'data-record-base': '/archive/records/' });
  });

  it('keeps a hostile heading and introduction as text', () => {
    const hostile = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "&amp;'", '<!--'));
    fc.assert(
      fc.property(hostile, hostile, (heading, intro) => {
        fc.pre(intro !== '');
        const html = browseViewHtml(view({ heading, intro }), paths);
        expect(DomUtils.textContent(all(html, 'h1')[0]!)).toBe(heading);
        expect(DomUtils.textContent(DomUtils.findAll((e) => e.attribs.class === 'lead', doc(html).children)[0]!)).toBe(intro);
        expect(all(html, 'script').concat(all(html, 'img'))).toEqual([]);
      }),
    );
  });
});

describe('sitePaths', () => {
  it('drops leading slashes from a site path, and leaves any other path as it is', () => {
    const p = sitePaths('/archive');
    expect(p.site('records/x/')).toBe('/archive/records/x/');
    expect(p.site('/records/x/')).toBe('/archive/records/x/');
    expect(p.site('//records/x/')).toBe('/archive/records/x/');
    expect(p.site('')).toBe('/archive/');
  });
});
