/**
 * The compact store of an index's postings (src/core/search/term-postings.ts): for any sequence of (term, posting)
 * pairs it gives what a plain map of lists gives (terms in the order first added, each term's postings sorted), also
 * past a chunk's end.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TermPostings } from '../../src/core/search/term-postings.ts';

/** The plain implementation it replaces. */
function naive(pairs: readonly [string, number][]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const [term, value] of pairs) map.set(term, [...(map.get(term) ?? []), value]);
  for (const list of map.values()) list.sort((a, b) => a - b);
  return map;
}

function asMap(store: TermPostings): Map<string, number[]> {
  const lists = store.takeSortedByTerm();
  return new Map(store.terms().map((term, id) => [term, [...lists[id]!]]));
}

describe('TermPostings', () => {
  it('gives each term its postings, sorted, terms in the order first added', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'zz', 'é', '北京', '0af3'), fc.nat({ max: 2 ** 32 - 1 })), { maxLength: 300 }), (pairs) => {
        const store = new TermPostings();
        for (const [term, value] of pairs) store.add(term, value);
        const taken = asMap(store);
        expect(taken).toEqual(naive(pairs));
        expect([...taken.keys()]).toEqual([...naive(pairs).keys()]);
      }),
    );
  });

  it('keeps every pair past the first chunk (2^20 pairs)', () => {
    const store = new TermPostings();
    const n = (1 << 20) + 1000;
    for (let i = 0; i < n; i++) store.add(i % 3 === 0 ? 'every-third' : 'other', n - i);
    const lists = store.takeSortedByTerm();
    expect(store.terms()).toEqual(['every-third', 'other']);
    expect(lists[0]!.length + lists[1]!.length).toBe(n);
    expect(lists[0]![0]).toBe(n - Math.floor((n - 1) / 3) * 3);
    expect(lists[1]!.at(-1)).toBe(n - 1);
    expect(lists.every((l) => l.every((v, i) => i === 0 || l[i - 1]! <= v))).toBe(true);
  });

  it('is empty once taken out: every chunk is let go', () => {
    const store = new TermPostings();
    for (let i = 0; i < (1 << 20) + 5; i++) store.add(i % 2 === 0 ? 'even' : 'odd', i);
    expect(store.takeSortedByTerm().map((l) => l.length)).toEqual([(1 << 19) + 3, (1 << 19) + 2]);
    expect(store.takeSortedByTerm().map((l) => l.length)).toEqual([0, 0]);
    store.add('even', 7);
    expect(store.takeSortedByTerm().map((l) => [...l])).toEqual([[7], []]);
  });
});
