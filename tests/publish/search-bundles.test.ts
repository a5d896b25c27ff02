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
  searchShardRecords,
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

  it('one bundle per started group of records, at least one; the first is /pagefind/', () => {
    expect(searchBundleDirs(0, 10)).toEqual(['pagefind/']);
    expect(searchBundleDirs(10, 10)).toEqual(['pagefind/']);
    expect(searchBundleDirs(11, 10)).toEqual(['pagefind/', 'pagefind-2/']);
    expect(searchBundleDirs(21, 8)).toEqual(['pagefind/', 'pagefind-2/', 'pagefind-3/']);
    expect(searchBundleDirs(100_000, DEFAULT_SEARCH_SHARD_RECORDS)).toHaveLength(5);
    expect(searchBundleDir(1)).toBe('pagefind/');
    expect(searchBundleDir(12)).toBe('pagefind-12/');
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
    expect(b.slice(0, 2)).toEqual(a.slice(0, 2));
    expect(b[2]!.ids.at(-1)).toBe(backdated);
    // The order this replaced (code points) would have moved one record out of every bundle.
    const byId = [...before, backdated].sort();
    expect(byId[0]).toBe(backdated);
  });

  it('property: appending records with higher sequence numbers leaves every bundle but the last (or new ones) as it was', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 15 }),
        fc.array(fc.constantFrom('2026-01-01', '2026-06-30', '2027-02-02'), { minLength: 130, maxLength: 130 }),
        (seqs, appended, perBundle, days) => {
          const existing = seqs.map((s, i) => id(days[i]!, s));
          const top = Math.max(...seqs);
          const added = Array.from({ length: appended }, (_, i) => id(days[days.length - 1 - i]!, top + i + 1));
          const a = searchBundlesOf(existing, perBundle);
          const b = searchBundlesOf([...added, ...existing], perBundle);
          // Every full bundle before the last is unchanged; the last one only grows.
          expect(b.slice(0, a.length - 1)).toEqual(a.slice(0, -1));
          expect(b[a.length - 1]!.ids.slice(0, a.at(-1)!.ids.length)).toEqual(a.at(-1)!.ids);
          expect(b.flatMap((x) => x.ids).slice(-appended)).toEqual(added);
        },
      ),
    );
  });

  it('fills bundles of perBundle ids in that order, with their folders', () => {
    const ids = Array.from({ length: 5 }, (_, i) => id('2026-01-01', 5 - i));
    expect(searchBundlesOf(ids, 2)).toEqual([
      { dir: 'pagefind/', ids: [id('2026-01-01', 1), id('2026-01-01', 2)] },
      { dir: 'pagefind-2/', ids: [id('2026-01-01', 3), id('2026-01-01', 4)] },
      { dir: 'pagefind-3/', ids: [id('2026-01-01', 5)] },
    ]);
    expect(searchBundlesOf([], 2)).toEqual([{ dir: 'pagefind/', ids: [] }]);
  });
});
