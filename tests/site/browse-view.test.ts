/**
 * A listing page's body as one string (src/site/render/browse-view.ts) and its navigation
 * (src/site/render/pagination.ts): what the summary line says on a front page and on a numbered one (which records it
 * holds, never the listing's length), which pages the navigation names, the current facet value, the filters written
 * once per value (counts on the all-records front page only) and still marking the right one, and hostile record
 * text kept as text.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DomUtils, parseDocument } from 'htmlparser2';
import { summarizeRecord } from '../../src/site/model/archive-model.ts';
import { facetCounts } from '../../src/site/model/facets.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { listingPages, type PagePlace } from '../../src/site/model/listing-pages.ts';
import { browseViewHtml, type BrowseView } from '../../src/site/render/browse-view.ts';
import { attribute } from '../../src/site/render/escape.ts';
import { facetFiltersHtml } from '../../src/site/render/facet-filters.ts';
import { paginationHtml } from '../../src/site/render/pagination.ts';
import { REMOVE, echoWith, validEcho } from '../helpers/records.ts';

const paths = sitePaths('/');
const doc = (html: string) => parseDocument(html);
const all = (html: string, name: string) => DomUtils.getElementsByTagName(name, doc(html).children);
const byAttr = (html: string, name: string) => DomUtils.findAll((e) => e.attribs[name] !== undefined, doc(html).children);
const summary = (id: string, record: Record<string, unknown>) => summarizeRecord({ id, path: `2026/${id}.json`, archiveDate: '2026-03-01', sha256: '0'.repeat(64), record });

const records = [validEcho(), echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'x' }), echoWith({ '/assessment_state': REMOVE })];
const counts = facetCounts(records);
const echo = summary('echo-a', validEcho());
/** The pages of a listing of `n` records, 50 a page (copies of one record; withdrawn where `isWithdrawn`). */
const listingOf = (n: number, isWithdrawn = (_i: number) => false) =>
  listingPages(Array.from({ length: n }, (_, i) => ({ ...echo, id: `echo-${i + 1}`, withdrawn: isWithdrawn(i) })), 50);
const pageOf = (n: number, at: PagePlace = 'front', isWithdrawn?: (i: number) => boolean) => listingOf(n, isWithdrawn).find((p) => p.at === at)!;
const view = (over: Partial<BrowseView> = {}): BrowseView => ({
  heading: 'All records',
  page: pageOf(1),
  total: 1,
  withdrawn: 0,
  href: (at) => paths.browse(undefined, undefined, at),
  counts,
  ...over,
});
const summaryText = (html: string) => DomUtils.textContent(byAttr(html, 'data-summary-text')[0]!);

describe('paginationHtml', () => {
  const href = (at: PagePlace) => paths.browse('archive_status', 'superseded', at);
  const pages = listingPages(Array.from({ length: 1000 }, (_, i) => i), 10);
  const nav = (at: PagePlace) => {
    const page = pages.find((p) => p.at === at)!;
    return paginationHtml(page.at, page.navigation, href);
  };

  it('writes nothing for a listing on one page', () => {
    const [only] = listingPages([1, 2, 3], 10);
    expect(paginationHtml(only!.at, only!.navigation, href)).toBe('');
    expect(nav('front')).not.toBe('');
  });

  it('links the neighbours and every page named; the current page and the missing neighbour are not links', () => {
    const front = nav('front');
    expect(all(front, 'a').map((a) => [a.attribs.href, DomUtils.textContent(a)])).toEqual([
      ['/browse/archive_status/superseded/99/', 'Page 99'],
      ['/browse/archive_status/superseded/98/', 'Page 98'],
      ['/browse/archive_status/superseded/1/', 'Page 1'],
      ['/browse/archive_status/superseded/99/', 'Older →'],
    ]);
    expect(all(front, 'a').at(-1)!.attribs.rel).toBe('next');
    expect(DomUtils.textContent(all(front, 'span').find((s) => s.attribs['aria-current'] === 'page')!)).toBe('Newest');
    expect(front).toContain('<span class="disabled" aria-hidden="true">← Newer</span>');
    const first = nav(1);
    expect(all(first, 'a')[0]!.attribs).toMatchObject({ href: '/browse/archive_status/superseded/2/', rel: 'prev' });
    expect(all(first, 'a')[1]!.attribs.href).toBe('/browse/archive_status/superseded/');
    expect(all(first, 'span').find((s) => s.attribs['aria-current'] === 'page')!.children.map((c) => DomUtils.textContent(c))).toEqual(['Page ', '1']);
    expect(first).toContain('<span class="disabled" aria-hidden="true">Older →</span>');
    expect(all(nav(99), 'a')[0]!.attribs).toMatchObject({ href: '/browse/archive_status/superseded/', rel: 'prev' });
    expect(all(nav(50), 'li').filter((li) => li.attribs.class === 'gap')).toHaveLength(2);
  });

  it('names no page whose number depends on the listing\u2019s length, but near the newest end', () => {
    // page 50 of 1,000 records and of 1,500: the same navigation
    const longer = listingPages(Array.from({ length: 1500 }, (_, i) => i), 10).find((p) => p.at === 50)!;
    expect(paginationHtml(50, longer.navigation, href)).toBe(nav(50));
  });

  it('escapes the URLs it is given', () => {
    const [front] = listingPages([1, 2, 3], 1);
    expect(paginationHtml('front', front!.navigation, (at) => `/a?x=1&y="${at}"`)).toContain(`href="${attribute('/a?x=1&y="2"')}"`);
    expect(attribute('/a?x=1&y="2"')).toBe('/a?x=1&amp;y=&quot;2&quot;');
  });
});

describe('browseViewHtml', () => {
  it('on a front page: how many records the listing has, how many withdrawn, and which of them it shows', () => {
    expect(summaryText(browseViewHtml(view(), paths))).toBe('1 record, newest first.');
    expect(summaryText(browseViewHtml(view({ page: pageOf(21), total: 21, withdrawn: 1 }), paths))).toBe('21 records, 1 of them withdrawn (listed, not counted), newest first.');
    expect(summaryText(browseViewHtml(view({ page: pageOf(9899), total: 9899 }), paths))).toBe(
      '9899 records, newest first. Here the newest 99 (9801–9899 in order of arrival); older ones on numbered pages, 1 the oldest.',
    );
  });

  it('on a numbered page: which records it holds, and how many of those are withdrawn; never the listing\u2019s length', () => {
    expect(summaryText(browseViewHtml(view({ page: pageOf(9899, 3), total: 9899, withdrawn: 7 }), paths))).toBe('Records 101–150 in order of arrival (1 is the oldest), newest first.');
    expect(summaryText(browseViewHtml(view({ page: pageOf(9899, 3, (i) => i === 120), total: 9899, withdrawn: 7 }), paths))).toBe(
      'Records 101–150 in order of arrival (1 is the oldest), 1 of them withdrawn (listed, not counted), newest first.',
    );
    // the whole body of page 3 is the same at 400 records and at 9,899
    expect(browseViewHtml(view({ page: pageOf(400, 3), total: 400, withdrawn: 0 }), paths)).toBe(browseViewHtml(view({ page: pageOf(9899, 3), total: 9899, withdrawn: 7 }), paths));
  });

  it('lists the page\u2019s records under h2 headings, with the navigation only when the listing has more than one page', () => {
    const one = browseViewHtml(view(), paths);
    expect(all(one, 'h2').map((h) => DomUtils.textContent(h))).toContain(echo.title);
    expect(all(one, 'nav')).toHaveLength(0);
    expect(all(browseViewHtml(view({ page: pageOf(120), total: 120 }), paths), 'nav').map((n) => n.attribs.class)).toEqual(['pagination']);
    expect(browseViewHtml(view({ page: pageOf(0), total: 0 }), paths)).toContain('<p class="muted">No records.</p>');
  });

  it('shows the filter counts on the all-records front page only', () => {
    const countsIn = (html: string) => DomUtils.findAll((e) => e.attribs.class === 'chip-count', doc(html).children).length;
    expect(countsIn(browseViewHtml(view({ page: pageOf(120), total: 120 }), paths))).toBeGreaterThan(0);
    expect(countsIn(browseViewHtml(view({ page: pageOf(120, 1), total: 120 }), paths))).toBe(0);
    expect(countsIn(browseViewHtml(view({ current: { facet: 'archive_status', slug: 'superseded', value: 'superseded' } }), paths))).toBe(0);
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
        expect(html).toContain(facetFiltersHtml(counts, paths, current && { facet: current.facet, slug: current.slug }, { counts: current === undefined }));
        const marked = all(html, 'a').filter((a) => a.attribs['aria-current'] === 'page');
        expect(marked.map((a) => a.attribs.href)).toEqual(current ? [paths.browse(current.facet, current.slug)] : []);
      }
    }
  });

  it('links under the base path', () => {
    const under = sitePaths('/archive/');
    const html = browseViewHtml(view({ page: pageOf(120, 1), total: 120, href: (at) => under.browse(undefined, undefined, at) }), under);
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
