import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_SHARD_RECORDS, searchBundleDir, searchBundleDirs, searchShardRecords } from '../../src/core/publish/search-bundles.ts';
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
