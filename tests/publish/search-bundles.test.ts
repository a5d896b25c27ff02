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

  it('one bundle when the records fit in a tail chunk; the first is /pagefind/, the others numbered', () => {
    expect(searchBundleDirs(0, 16)).toEqual(['pagefind/']);
    expect(searchBundleDirs(1, 16)).toEqual(['pagefind/']);
    expect(searchBundleDirs(3, 16)).toEqual(['pagefind/', 'pagefind-2/']);
    expect(searchBundleDirs(100_000, DEFAULT_SEARCH_SHARD_RECORDS)).toHaveLength(5);
    expect(searchBundleDir(1)).toBe('pagefind/');
    expect(searchBundleDir(12)).toBe('pagefind-12/');
  });
});

describe('the tail layout (searchBundleSizes)', () => {
  const FULL = DEFAULT_SEARCH_SHARD_RECORDS;
  const UNIT = 1_250;

  it('the unit is FULL / 16, rounded down, at least 1', () => {
    expect(searchTailUnit(FULL)).toBe(UNIT);
    expect(searchTailUnit(16)).toBe(1);
    expect(searchTailUnit(100)).toBe(6);
    expect(searchTailUnit(10)).toBe(1);
    expect(searchTailUnit(1)).toBe(1);
  });

  it('edge cases at the default FULL = 20,000 (UNIT = 1,250)', () => {
    const cases: [number, number[]][] = [
      [0, [0]],
      [1, [1]],
      [UNIT - 1, [1_249]],
      [UNIT, [1_250]],
      [UNIT + 1, [1_250, 1]],
      [2 * UNIT - 1, [1_250, 1_249]],
      [2 * UNIT, [2_500]],
      [3 * UNIT, [2_500, 1_250]],
      [9_899, [5_000, 2_500, 1_250, 1_149]],
      [FULL - 2 * UNIT, [10_000, 5_000, 2_500]],
      [FULL - UNIT, [10_000, 5_000, 2_500, 1_250]],
      [FULL - 1, [10_000, 5_000, 2_500, 1_250, 1_249]],
      [FULL, [20_000]],
      [FULL + 1, [20_000, 1]],
      [FULL + UNIT, [20_000, 1_250]],
      [99_006, [20_000, 20_000, 20_000, 20_000, 10_000, 5_000, 2_500, 1_250, 256]],
      [5 * FULL, [20_000, 20_000, 20_000, 20_000, 20_000]],
    ];
    for (const [n, sizes] of cases) expect(searchBundleSizes(n, FULL), `n = ${n}`).toEqual(sizes);
  });

  it('a FULL that 16 does not divide: the chunks are still multiples of the unit and below FULL', () => {
    expect(searchBundleSizes(99, 100)).toEqual([96, 3]); // unit 6: 16 units, then 3
    expect(searchBundleSizes(9, 10)).toEqual([8, 1]); // unit 1
    expect(searchBundleSizes(1, 1)).toEqual([1]);
    expect(searchBundleSizes(3, 1)).toEqual([1, 1, 1]);
  });

  it('refuses a count or a bundle size that is not a whole number of records', () => {
    for (const [n, full] of [[-1, 10], [1.5, 10], [10, 0], [10, 2.5], [Number.NaN, 10]] as const) {
      expect(() => searchBundleSizes(n, full), `${n}, ${full}`).toThrow(/integer/);
    }
  });

  it('property: full bundles, then tail chunks of unit·2^k largest first, then one partial chunk; at most 5 tail bundles', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300_000 }), fc.integer({ min: 1, max: 40_000 }), (n, full) => {
        const sizes = searchBundleSizes(n, full);
        const unit = searchTailUnit(full);
        expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
        const fulls = Math.floor(n / full);
        expect(sizes.slice(0, fulls)).toEqual(Array(fulls).fill(full));
        const tail = sizes.slice(fulls);
        if (n === 0) {
          expect(sizes).toEqual([0]);
          return;
        }
        const whole = tail.filter((s) => s >= unit);
        const partial = tail.slice(whole.length);
        expect(partial.length).toBeLessThanOrEqual(1);
        if (partial.length) expect(partial[0]).toBe((n % full) % unit);
        for (const [i, s] of whole.entries()) {
          expect(s).toBeLessThan(full);
          expect(Number.isInteger(Math.log2(s / unit))).toBe(true);
          if (i > 0) expect(s).toBeLessThan(whole[i - 1]!);
        }
        // log2(16) + 1 chunks and the partial one; one more level only when 16 does not divide FULL.
        expect(tail.length).toBeLessThanOrEqual(full % 16 === 0 || full < 16 ? 5 : 6);
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

  it('property: appending one record changes exactly one bundle, the last of the new layout: the partial chunk (< unit pages) unless the count reaches a multiple of the unit (a carry)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 5_000 }), { minLength: 0, maxLength: 150 }),
        fc.integer({ min: 1, max: 48 }),
        fc.array(fc.constantFrom('2026-01-01', '2026-06-30', '2027-02-02'), { minLength: 151, maxLength: 151 }),
        (seqs, perBundle, days) => {
          const existing = seqs.map((s, i) => id(days[i]!, s));
          const added = id(days[150]!, Math.max(0, ...seqs) + 1);
          const a = searchBundlesOf(existing, perBundle);
          const b = searchBundlesOf([added, ...existing], perBundle);
          // Every bundle but b's last is a's bundle at the same place, folder and pages; a's later ones are gone.
          expect(b.slice(0, -1)).toEqual(a.slice(0, b.length - 1));
          expect(b.length).toBeLessThanOrEqual(a.length + 1);
          const changed = b.at(-1)!;
          expect(changed.ids.at(-1)).toBe(added);
          expect(changed).not.toEqual(a[b.length - 1]);
          // Its size: the partial chunk, or at a carry the chunk the low bits merged into, or a new full bundle.
          const unit = searchTailUnit(perBundle);
          const tail = (seqs.length + 1) % perBundle;
          const units = tail / unit;
          const lowestBit = units & -units;
          const expected = tail === 0 ? perBundle : tail % unit !== 0 ? tail % unit : unit * lowestBit;
          expect(changed.ids).toHaveLength(expected);
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
        expect(kept).toBeGreaterThanOrEqual(Math.floor(n / perBundle));
      }),
    );
  });

  it('a carry: the low chunks merge into one and the larger chunks keep their folders and pages (largest first)', () => {
    // FULL 16: unit 1; 6 → [4, 2], 7 → [4, 2, 1], 8 → [8], 9 → [8, 1].
    const at = (n: number) => searchBundlesOf(seqIds(1, n), 16).map((b) => `${b.dir}:${b.ids.length}`);
    expect(at(6)).toEqual(['pagefind/:4', 'pagefind-2/:2']);
    expect(at(7)).toEqual(['pagefind/:4', 'pagefind-2/:2', 'pagefind-3/:1']);
    expect(at(8)).toEqual(['pagefind/:8']);
    expect(at(9)).toEqual(['pagefind/:8', 'pagefind-2/:1']);
    expect(searchBundlesOf(seqIds(1, 7), 16)[1]!.ids).toEqual(seqIds(5, 2));
  });

  it('fills the bundles in that order, with their folders', () => {
    const ids = Array.from({ length: 5 }, (_, i) => id('2026-01-01', 5 - i));
    expect(searchBundlesOf(ids, 2)).toEqual([
      { dir: 'pagefind/', ids: [id('2026-01-01', 1), id('2026-01-01', 2)] },
      { dir: 'pagefind-2/', ids: [id('2026-01-01', 3), id('2026-01-01', 4)] },
      { dir: 'pagefind-3/', ids: [id('2026-01-01', 5)] },
    ]);
    expect(searchBundlesOf(ids, 16)).toEqual([
      { dir: 'pagefind/', ids: [id('2026-01-01', 1), id('2026-01-01', 2), id('2026-01-01', 3), id('2026-01-01', 4)] },
      { dir: 'pagefind-2/', ids: [id('2026-01-01', 5)] },
    ]);
    expect(searchBundlesOf([], 2)).toEqual([{ dir: 'pagefind/', ids: [] }]);
  });
});
