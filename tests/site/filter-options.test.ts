/**
 * The search page's filter options once the index is in (src/site/client/filter-options.ts): the page's values that
 * some record has, in the page's order, then the index's values the page lacks; a value the URL selects stays.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syncFilterOptions } from '../../src/site/client/filter-options.ts';

describe('syncFilterOptions', () => {
  it("keeps the page's values that the index has, in the page's order, and adds the index's others after them", () => {
    expect(syncFilterOptions(['Echo', 'Test record', 'Legacy record'], ['Legacy record', 'Echo'])).toEqual(['Echo', 'Legacy record']);
    expect(syncFilterOptions(['Echo'], ['Echo', 'Zeta', 'Alpha'])).toEqual(['Echo', 'Zeta', 'Alpha']);
    expect(syncFilterOptions(['Echo', 'Test record'], [])).toEqual([]);
  });

  it('keeps the value the URL selects if the page offers it, though no record has it', () => {
    expect(syncFilterOptions(['Echo', 'Test record'], ['Echo'], 'Test record')).toEqual(['Echo', 'Test record']);
    expect(syncFilterOptions(['Echo'], ['Echo'], 'Nowhere')).toEqual(['Echo']);
  });

  it('offers each value of the index exactly once, and nothing else but the kept value', () => {
    const labels = fc.uniqueArray(fc.constantFrom<string>('A', 'B', 'C', 'D', 'E', 'F'), { maxLength: 6 });
    fc.assert(
      fc.property(labels, labels, fc.option(fc.constantFrom<string>('A', 'B', 'G'), { nil: undefined }), (offered, indexed, kept) => {
        const synced = syncFilterOptions(offered, indexed, kept);
        expect(new Set(synced).size).toBe(synced.length);
        const expected = new Set([...indexed, ...(kept !== undefined && offered.includes(kept) ? [kept] : [])]);
        expect(new Set(synced)).toEqual(expected);
        // the page's values keep the page's order
        const fromPage = synced.filter((v) => offered.includes(v));
        expect(fromPage).toEqual(offered.filter((v) => fromPage.includes(v)));
      }),
    );
  });
});
