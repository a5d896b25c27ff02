/**
 * The pages of a listing (src/site/model/listing-pages.ts), issue 27: for any listing length and page size, every
 * record is on exactly one page, each page newest first, numbered pages full and in order; the navigation reaches
 * every page; and appending a record changes the front page and at most four pages next to the newest end (their
 * records or their navigation), and never the records of a numbered page.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_BROWSE_PAGE_SIZE, browsePageSize, listingPages, type ListingPage, type PagePlace } from '../../src/site/model/listing-pages.ts';

/** A listing of `n` records in order of arrival: record i arrived i-th. */
const arrivals = (n: number) => Array.from({ length: n }, (_, i) => i);
const places = (pages: readonly ListingPage<number>[]) => pages.map((p) => p.at);
const listing = fc.record({ total: fc.integer({ min: 0, max: 700 }), pageSize: fc.integer({ min: 1, max: 60 }) });

describe('listingPages', () => {
  it('puts a short listing on its front page alone, with no navigation', () => {
    expect(listingPages(arrivals(3), 5)).toEqual([{ at: 'front', items: [2, 1, 0], from: 1, to: 3, navigation: { newer: null, older: null, shown: [] } }]);
    expect(listingPages([], 5)).toEqual([{ at: 'front', items: [], from: 0, to: 0, navigation: { newer: null, older: null, shown: [] } }]);
    // the last full chunk stays on the front page: 9 records of 5 a page are one page
    expect(places(listingPages(arrivals(9), 5))).toEqual(['front']);
  });

  it('numbers full pages from the oldest; the front page holds the last full one and the records after it', () => {
    const pages = listingPages(arrivals(23), 5);
    expect(pages.map((p) => [p.at, p.items, p.from, p.to])).toEqual([
      ['front', [22, 21, 20, 19, 18, 17, 16, 15], 16, 23],
      [3, [14, 13, 12, 11, 10], 11, 15],
      [2, [9, 8, 7, 6, 5], 6, 10],
      [1, [4, 3, 2, 1, 0], 1, 5],
    ]);
    expect(pages.map((p) => p.navigation)).toEqual([
      { newer: null, older: 3, shown: ['front', 3, 2, 1] },
      { newer: 'front', older: 2, shown: ['front', 3, 2, 1] },
      { newer: 3, older: 1, shown: ['front', 3, 2, 1] },
      { newer: 2, older: null, shown: ['front', 3, 2, 1] },
    ]);
  });

  it('names the front page, two pages either side and page 1, with a gap for each run left out', () => {
    const nav = (at: PagePlace) => listingPages(arrivals(1000), 10).find((p) => p.at === at)!.navigation.shown;
    expect(nav('front')).toEqual(['front', 99, 98, 'gap', 1]);
    expect(nav(50)).toEqual(['front', 'gap', 52, 51, 50, 49, 48, 'gap', 1]);
    expect(nav(97)).toEqual(['front', 99, 98, 97, 96, 95, 'gap', 1]);
    expect(nav(3)).toEqual(['front', 'gap', 5, 4, 3, 2, 1]);
  });

  it('refuses a page size below one record', () => {
    expect(() => listingPages(arrivals(3), 0)).toThrow(RangeError);
    expect(listingPages(arrivals(3), 1).map((p) => p.at)).toEqual(['front', 2, 1]);
  });

  it('for any listing: every record on exactly one page, newest first, numbered pages full; the navigation reaches every page', () => {
    fc.assert(
      fc.property(listing, ({ total, pageSize }) => {
        const pages = listingPages(arrivals(total), pageSize);
        // every record once, and reading the pages in order (front, then down to 1) reads the listing newest first
        expect(pages.flatMap((p) => p.items)).toEqual(arrivals(total).reverse());
        const [front, ...numbered] = pages;
        expect(front!.at).toBe('front');
        expect(front!.items.length).toBe(total < pageSize ? total : pageSize + (total % pageSize));
        numbered.forEach((p, i) => {
          expect(p.at).toBe(numbered.length - i);
          expect(p.items).toEqual(arrivals(pageSize).map((j) => (p.at as number) * pageSize - 1 - j));
        });
        for (const p of pages) if (p.items.length > 0) expect([p.from, p.to]).toEqual([p.items.at(-1)! + 1, p.items[0]! + 1]);
        // "Older →" from the front page visits every page once, "← Newer" back; every named page exists
        const byPlace = new Map(pages.map((p) => [p.at, p]));
        const walked: PagePlace[] = [];
        for (let at: PagePlace | null = 'front'; at !== null; at = byPlace.get(at)!.navigation.older) walked.push(at);
        expect(walked).toEqual(places(pages));
        for (const p of pages) {
          if (p.navigation.older !== null) expect(byPlace.get(p.navigation.older)!.navigation.newer).toBe(p.at);
          const named = p.navigation.shown.filter((s): s is PagePlace => s !== 'gap');
          for (const s of named) expect(byPlace.has(s)).toBe(true);
          if (pages.length > 1) expect(named).toEqual(expect.arrayContaining([p.at, 'front', 1]));
          // newest first, a gap exactly where pages are left out
          const order = (s: PagePlace) => places(pages).indexOf(s);
          p.navigation.shown.forEach((s, i) => {
            const [before, after] = [p.navigation.shown[i - 1], p.navigation.shown[i + 1]];
            if (s === 'gap') expect(order(after as PagePlace) - order(before as PagePlace)).toBeGreaterThan(1);
            else if (after !== undefined && after !== 'gap') expect(order(after)).toBe(order(s) + 1);
          });
        }
      }),
    );
  });

  it('for any listing: an append changes the front page and at most four pages at the newest end, and no numbered page\u2019s records', () => {
    fc.assert(
      fc.property(listing, ({ total, pageSize }) => {
        const before = new Map(listingPages(arrivals(total), pageSize).map((p) => [p.at, p]));
        const after = new Map(listingPages(arrivals(total + 1), pageSize).map((p) => [p.at, p]));
        const changed = [...new Set([...before.keys(), ...after.keys()])].filter((at) => JSON.stringify(before.get(at)) !== JSON.stringify(after.get(at)));
        const newest = Math.max(0, ...[...before.keys()].filter((at): at is number => at !== 'front'));
        // no page goes away; a numbered page that existed keeps its records
        for (const at of before.keys()) expect(after.has(at)).toBe(true);
        for (const [at, page] of before) if (at !== 'front') expect(after.get(at)!.items).toEqual(page.items);
        // only the front page, unless the append fills a chunk: then a new page and the three before it
        expect(changed).toContain('front');
        expect(changed.length).toBeLessThanOrEqual(5);
        for (const at of changed) if (at !== 'front') expect(at).toBeGreaterThanOrEqual(newest - 2);
        if ((total + 1) % pageSize !== 0) expect(changed).toEqual(['front']);
      }),
    );
  });

  it('a page\u2019s worth of appends at 10,000 records leaves 196 of the 200 pages as they were', () => {
    const pageSize = 50;
    const at = (n: number) => new Map(listingPages(arrivals(n), pageSize).map((p) => [p.at, JSON.stringify(p)]));
    const before = at(10_000);
    const after = at(10_050);
    const kept = [...before].filter(([place, page]) => after.get(place) === page).length;
    expect(before.size).toBe(200);
    expect(before.size - kept).toBe(4); // the front page, and the three numbered pages before the new one (navigation)
  });
});

describe('browsePageSize', () => {
  it('is 50, or BROWSE_PAGE_SIZE when that is a whole number from 1 to 10000', () => {
    expect(browsePageSize({})).toBe(DEFAULT_BROWSE_PAGE_SIZE);
    expect(browsePageSize({ BROWSE_PAGE_SIZE: ' 5 ' })).toBe(5);
    for (const bad of ['0', '-3', '2.5', 'ten', '10001']) expect(() => browsePageSize({ BROWSE_PAGE_SIZE: bad }), bad).toThrow(/BROWSE_PAGE_SIZE/);
  });
});
