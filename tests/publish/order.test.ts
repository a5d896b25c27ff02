/** The archive's orders (src/core/publish/records.ts): archive-path order for the index, newest first for people. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { byArchivePath, datedNewestFirst, newestFirst, newestFirstOrder } from '../../src/core/publish/records.ts';

const rec = (path: string, archiveDate: string | null, id = path.replace(/^.*\//, '').replace(/\.json$/, '')) => ({ id, path, archiveDate });

describe('newestFirst', () => {
  const records = [
    rec('2026/echo-2026-11-20-000001.json', '2026-11-20'),
    rec('notes/zeta.json', null),
    rec('2026/echo-2026-11-21-000001.json', '2026-11-21'),
    rec('notes/alpha.json', null),
    rec('2026/echo-2026-11-21-000002.json', '2026-11-21'),
  ];

  it('puts the newest archive date first, the higher id first on a day, undated records last by id', () => {
    expect([...records].sort(newestFirst).map((r) => r.id)).toEqual([
      'echo-2026-11-21-000002', 'echo-2026-11-21-000001', 'echo-2026-11-20-000001', 'alpha', 'zeta',
    ]);
  });

  it('breaks a tie of id by path, so the order is total', () => {
    const a = rec('a/x.json', null, 'x');
    const b = rec('b/x.json', null, 'x');
    expect([b, a].sort(newestFirst)).toEqual([a, b]);
  });

  it('gives the same order whatever order the records come in', () => {
    const arb = fc.array(
      fc.record({
        path: fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }),
        id: fc.string({ unit: 'binary', maxLength: 4 }),
        archiveDate: fc.option(fc.constantFrom('2026-01-01', '2026-01-02', '2025-12-31'), { nil: null }),
      }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(arb, (list) => {
        const once = [...list].sort(newestFirst);
        expect([...list].reverse().sort(newestFirst).map((r) => JSON.stringify(r))).toEqual(once.map((r) => JSON.stringify(r)));
      }),
    );
  });

  it('newestFirstOrder sorts a records array once: the same order, the same array when asked again, the records untouched', () => {
    const list = [...records];
    const order = newestFirstOrder(list);
    expect(order).toEqual([...records].sort(newestFirst));
    expect(newestFirstOrder(list)).toBe(order);
    expect(list).toEqual(records);
    // Another array of the same records is another question.
    expect(newestFirstOrder([...list])).not.toBe(order);
  });

  it('datedNewestFirst gives every dated record newest first, whatever the mix of dated and undated', () => {
    const arb = fc.array(fc.record({ path: fc.string({ minLength: 1, maxLength: 4 }), id: fc.string({ maxLength: 3 }), archiveDate: fc.option(fc.constantFrom('2026-01-01', '2026-01-02'), { nil: null }) }), { maxLength: 20 });
    fc.assert(
      fc.property(arb, (list) => {
        expect(datedNewestFirst(list)).toEqual(list.filter((r) => r.archiveDate !== null).sort(newestFirst));
      }),
    );
  });

  it('datedNewestFirst leaves undated records out; byArchivePath sorts by path', () => {
    expect(datedNewestFirst(records).map((r) => r.archiveDate)).toEqual(['2026-11-21', '2026-11-21', '2026-11-20']);
    expect(byArchivePath(records).map((r) => r.path)[0]).toBe('2026/echo-2026-11-20-000001.json');
  });
});
