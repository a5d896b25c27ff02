import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_SEARCH_SHARD_RECORDS,
  searchBundleDir,
  searchBundleDirs,
  searchBundleOrder,
  searchBundlesOf,
  searchBundleSizes,
  searchShardRecords,
  searchTailUnit,
} from '../../src/core/publish/search-bundles.ts';
import { linkOrCopy, linkOrCopySync } from '../../src/core/util/link-or-copy.ts';

describe('search bundles', () => {
  it('records per bundle: the default, SEARCH_SHARD_RECORDS, and a clear error for anything but a positive integer', () => {
    expect(searchShardRecords({})).toBe(DEFAULT_SEARCH_SHARD_RECORDS);
    expect(searchShardRecords({ SEARCH_SHARD_RECORDS: ' ' })).toBe(DEFAULT_SEARCH_SHARD_RECORDS);
    expect(searchShardRecords({ SEARCH_SHARD_RECORDS: '8' })).toBe(8);
    for (const bad of ['0', '-3', '2.5', 'many', '1e400']) {
      expect(() => searchShardRecords({ SEARCH_SHARD_RECORDS: bad }), bad).toThrow(/SEARCH_SHARD_RECORDS must be a positive integer/);
    }
  });

  it('one bundle below two tail units; the first is /pagefind/, the others numbered', () => {
    expect(searchBundleDirs(0, 64)).toEqual(['pagefind/']);
    expect(searchBundleDirs(3, 64)).toEqual(['pagefind/']);
    expect(searchBundleDirs(4, 64)).toEqual(['pagefind/', 'pagefind-2/']);
    expect(searchBundleDirs(100_000, DEFAULT_SEARCH_SHARD_RECORDS)).toHaveLength(10);
    expect(searchBundleDir(1)).toBe('pagefind/');
    expect(searchBundleDir(12)).toBe('pagefind-12/');
  });
});

describe('the tail layout (searchBundleSizes)', () => {
  const FULL = DEFAULT_SEARCH_SHARD_RECORDS;
  const UNIT = 625;

  it('the unit is FULL / 32, rounded down, at least 1', () => {
    expect(searchTailUnit(FULL)).toBe(UNIT);
    expect(searchTailUnit(64)).toBe(2);
    expect(searchTailUnit(100)).toBe(3);
    expect(searchTailUnit(31)).toBe(1);
    expect(searchTailUnit(1)).toBe(1);
  });

  it('edge cases at the default FULL = 20,000 (UNIT = 625)', () => {
    const cases: [number, number[]][] = [
      [0, [0]],
      [1, [1]],
      [UNIT - 1, [624]],
      [UNIT, [625]],
      [2 * UNIT - 1, [1_249]],
      [2 * UNIT, [625, 625]],
      [2 * UNIT + 1, [625, 626]],
      [3 * UNIT - 1, [625, 1_249]],
      [3 * UNIT, [1_250, 625]],
      [4 * UNIT, [1_250, 625, 625]],
      [9_899, [5_000, 2_500, 1_250, 1_149]],
      [FULL - 1, [10_000, 5_000, 2_500, 1_250, 1_249]],
      [FULL, [10_000, 5_000, 2_500, 1_250, 625, 625]],
      [FULL + 1, [10_000, 5_000, 2_500, 1_250, 625, 626]],
      [FULL + UNIT - 1, [10_000, 5_000, 2_500, 1_250, 625, 1_249]],
      [FULL + UNIT, [20_000, 625]],
      [FULL + UNIT + 1, [20_000, 626]],
      [99_006, [20_000, 20_000, 20_000, 20_000, 10_000, 5_000, 2_500, 625, 881]],
      [5 * FULL + UNIT, [20_000, 20_000, 20_000, 20_000, 20_000, 625]],
    ];
    for (const [n, sizes] of cases) expect(searchBundleSizes(n, FULL), `n = ${n}`).toEqual(sizes);
  });

  it('small FULLs and one that 32 does not divide: chunks are multiples of the unit, below FULL', () => {
    expect(searchBundleSizes(99, 100)).toEqual([96, 3]); // unit 3: 32 units, then 3
    expect(searchBundleSizes(9, 10)).toEqual([8, 1]); // unit 1
    expect(searchBundleSizes(5, 3)).toEqual([3, 1, 1]);
    expect(searchBundleSizes(1, 1)).toEqual([1]);
    expect(searchBundleSizes(3, 1)).toEqual([1, 1, 1]);
  });

  it('refuses a count or a bundle size that is not a whole number of records', () => {
    for (const [n, full] of [[-1, 10], [1.5, 10], [10, 0], [10, 2.5], [Number.NaN, 10]] as const) {
      expect(() => searchBundleSizes(n, full), `${n}, ${full}`).toThrow(/integer/);
    }
  });

  it('property: full bundles, then chunks of unit·2^k largest first, then the last bundle of unit to 2·unit − 1 pages; at most 6 tail bundles', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300_000 }), fc.integer({ min: 1, max: 40_000 }), (n, full) => {
        const sizes = searchBundleSizes(n, full);
        const unit = searchTailUnit(full);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
        if (n < 2 * unit) {
          expect(sizes).toEqual([n]);
          return;
        }
        let fulls = 0;
        while (fulls < sizes.length - 1 && sizes[fulls] === full) fulls++;
        expect(sizes.slice(0, fulls)).toEqual(Array(fulls).fill(full));
        const last = sizes.at(-1)!;
        expect(last).toBeGreaterThanOrEqual(unit);
        expect(last).toBeLessThan(2 * unit);
        const chunks = sizes.slice(fulls, -1);
        for (const [i, s] of chunks.entries()) {
          expect(s).toBeLessThan(full);
          expect(Number.isInteger(Math.log2(s / unit))).toBe(true);
          if (i > 0) expect(s).toBeLessThan(chunks[i - 1]!);
        }
        // log2(32) + 1 chunk sizes and the last bundle, once the unit is full / 32 exactly.
        if (full % 32 === 0) expect(chunks.length + 1).toBeLessThanOrEqual(6);
      }),
    );
  });
});

describe('linkOrCopy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'link-or-copy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hard-links the file, replacing a stale file at the target', async () => {
    const source = join(dir, 'a.json');
    const target = join(dir, 'b.json');
    writeFileSync(source, '{"a":1}');
    writeFileSync(target, 'stale');
    expect(await linkOrCopy(source, target)).toBe(true);
    expect(statSync(target).ino).toBe(statSync(source).ino);
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}');
  });

  it('fails loudly when the source is missing (nothing is published silently)', async () => {
    await expect(linkOrCopy(join(dir, 'missing.json'), join(dir, 'c.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('does the same synchronously (linkOrCopySync, for worker threads)', () => {
    const source = join(dir, 's.json');
    const target = join(dir, 't.json');
    writeFileSync(source, '{"s":1}');
    writeFileSync(target, 'stale');
    expect(linkOrCopySync(source, target)).toBe(true);
    expect(statSync(target).ino).toBe(statSync(source).ino);
    expect(() => linkOrCopySync(join(dir, 'missing.json'), join(dir, 'u.json'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('search bundle order (searchBundleOrder, searchBundlesOf)', () => {
  const id = (day: string, seq: number) => `echo-${day}-${String(seq).padStart(6, '0')}`;

  it('conventional records by sequence number, then by id; other names after them in code-point order', () => {
    const ids = ['zeta-note', id('2026-03-01', 3), id('2026-01-05', 10), 'alpha', id('2026-02-01', 3), id('2026-02-01', 1)];
    expect(searchBundleOrder(ids)).toEqual([id('2026-02-01', 1), id('2026-02-01', 3), id('2026-03-01', 3), id('2026-01-05', 10), 'alpha', 'zeta-note']);
  });

  it('a record appended with an earlier date but the next sequence number goes last, where id order would shift every bundle', () => {
    const before = Array.from({ length: 25 }, (_, i) => id('2026-05-01', i + 1));
    const backdated = id('2026-01-01', 26);
    const a = searchBundlesOf(before, 10);
    const b = searchBundlesOf([...before, backdated], 10);
    expect(b.slice(0, -1)).toEqual(a.slice(0, b.length - 1));
    expect(b.at(-1)!.ids.at(-1)).toBe(backdated);
    // The order this replaced (code points) would have moved one record out of every bundle.
    const byId = [...before, backdated].sort();
    expect(byId[0]).toBe(backdated);
  });

  const seqIds = (from: number, count: number) => Array.from({ length: count }, (_, i) => id('2026-01-01', from + i));

  it('property: appending one record changes the last bundle only, or at a carry (the last bundle back to unit pages) also the one before it: every other bundle keeps its folder and pages', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 5_000 }), { minLength: 0, maxLength: 150 }),
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.constantFrom('2026-01-01', '2026-06-30', '2027-02-02'), { minLength: 151, maxLength: 151 }),
        (seqs, perBundle, days) => {
          const existing = seqs.map((s, i) => id(days[i]!, s));
          const added = id(days[150]!, Math.max(0, ...seqs) + 1);
          const a = searchBundlesOf(existing, perBundle);
          const b = searchBundlesOf([added, ...existing], perBundle);
          const unit = searchTailUnit(perBundle);
          const n = seqs.length + 1;
          const carry = n >= 2 * unit && b.at(-1)!.ids.length === unit;
          const mayChange = carry ? 2 : 1;
          expect(b.slice(0, -mayChange)).toEqual(a.slice(0, b.length - mayChange));
          expect(b.at(-1)).not.toEqual(a[b.length - 1]);
          expect(b.at(-1)!.ids.at(-1)).toBe(added);
          // Without a carry the one bundle re-indexed is the last: at most 2·unit − 1 pages (or the whole small archive).
          if (!carry) expect(b.at(-1)!.ids.length).toBeLessThanOrEqual(Math.max(2 * unit - 1, n < 2 * unit ? n : 0));
        },
      ),
    );
  });

  it('property: appending several records changes a suffix of the bundles: a bundle is unchanged exactly when the sizes up to it agree', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 48 }), (n, appended, perBundle) => {
        const a = searchBundlesOf(seqIds(1, n), perBundle);
        const b = searchBundlesOf(seqIds(1, n + appended), perBundle);
        const sa = searchBundleSizes(n, perBundle);
        const sb = searchBundleSizes(n + appended, perBundle);
        const common = sb.findIndex((size, i) => size !== sa[i] || (n === 0 && i === 0));
        const kept = common === -1 ? sb.length : common;
        expect(b.slice(0, kept)).toEqual(a.slice(0, kept));
        for (const [i, bundle] of b.slice(kept).entries()) expect(bundle, `bundle ${kept + i + 1}`).not.toEqual(a[kept + i]);
        // Full bundles already there are never touched.
        let fulls = 0;
        while (fulls < sa.length - 1 && sa[fulls] === perBundle) fulls++;
        expect(kept).toBeGreaterThanOrEqual(fulls);
      }),
    );
  });

  it('a carry: the low chunks merge into one, the larger chunks keep their folders and pages (largest first)', () => {
    // FULL 64: unit 2; 13 → [8, 2, 3], 14 → [8, 4, 2], 15 → [8, 4, 3], 16 → [8, 4, 2, 2], 18 → [16, 2].
    const at = (n: number) => searchBundlesOf(seqIds(1, n), 64).map((b) => `${b.dir}:${b.ids.length}`);
    expect(at(13)).toEqual(['pagefind/:8', 'pagefind-2/:2', 'pagefind-3/:3']);
    expect(at(14)).toEqual(['pagefind/:8', 'pagefind-2/:4', 'pagefind-3/:2']);
    expect(at(15)).toEqual(['pagefind/:8', 'pagefind-2/:4', 'pagefind-3/:3']);
    expect(at(17)).toEqual(['pagefind/:8', 'pagefind-2/:4', 'pagefind-3/:2', 'pagefind-4/:3']);
    expect(at(18)).toEqual(['pagefind/:16', 'pagefind-2/:2']);
    expect(searchBundlesOf(seqIds(1, 14), 64)[1]!.ids).toEqual(seqIds(9, 4));
  });

  it('fills the bundles in that order, with their folders', () => {
    const ids = Array.from({ length: 5 }, (_, i) => id('2026-01-01', 5 - i));
    expect(searchBundlesOf(ids, 2)).toEqual([
      { dir: 'pagefind/', ids: [id('2026-01-01', 1), id('2026-01-01', 2)] },
      { dir: 'pagefind-2/', ids: [id('2026-01-01', 3), id('2026-01-01', 4)] },
      { dir: 'pagefind-3/', ids: [id('2026-01-01', 5)] },
    ]);
    expect(searchBundlesOf(ids, 32)).toEqual([
      { dir: 'pagefind/', ids: [id('2026-01-01', 1), id('2026-01-01', 2), id('2026-01-01', 3), id('2026-01-01', 4)] },
      { dir: 'pagefind-2/', ids: [id('2026-01-01', 5)] },
    ]);
    expect(searchBundlesOf([], 2)).toEqual([{ dir: 'pagefind/', ids: [] }]);
  });
});
