/**
 * readSiteArchive lifts a large archive's heap limit (src/site/build/large-archive.ts) only when the records come from
 * the site record cache, saying whether the pages are expected from the cache too, and tells the lifted limit when the
 * records are read or the archive is refused: how long it stays lifted is the limit's module's to decide (tested in
 * tests/site/large-archive.test.ts). A build that parses every record makes the garbage the limit is there for.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// The real module, its lifting counted: the flag itself is the process's, and is not set in this test's process.
const heap = vi.hoisted(() => ({ lifted: [] as boolean[], read: 0, refused: 0 }));
vi.mock('../../src/site/build/large-archive.ts', async (actual) => ({
  ...(await actual<typeof import('../../src/site/build/large-archive.ts')>()),
  freerHeapGrowthForCachedRecords: (pagesExpected: boolean) => {
    heap.lifted.push(pagesExpected);
    return { recordsRead: () => void heap.read++, refused: () => void heap.refused++ };
  },
}));

const quiet = { info: () => undefined, warn: () => undefined };

describe('readSiteArchive and the heap limit', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('lifts it only for records from a warm cache, and says when they are read or refused', async () => {
    const root = join(tempDir('echo-archive-heap-'), 'records');
    cpSync(join(REPO_ROOT, 'records'), root, { recursive: true });
    vi.stubEnv('ECHO_ARCHIVE_CACHE_DIR', tempDir('echo-archive-heap-cache-'));
    vi.stubEnv('ECHO_ARCHIVE_NO_CACHE', undefined);
    const read = () => readSiteArchive(root, quiet, { repo: REPO_ROOT, pagesFromCache: true });

    await readSiteArchive(root, quiet); // no cache at all
    await read(); // an empty cache: every record parsed, the cache filled
    expect(heap).toEqual({ lifted: [], read: 0, refused: 0 });

    await read(); // the records from the cache, the pages expected from the cache too
    expect(heap).toEqual({ lifted: [true], read: 1, refused: 0 });

    // The records from the cache, but not the pages (another configuration).
    await readSiteArchive(root, quiet, { repo: REPO_ROOT, pagesFromCache: false });
    expect(heap).toEqual({ lifted: [true, false], read: 2, refused: 0 });

    writeFileSync(join(root, '2026', 'echo-2026-01-01-999999.json'), '{ "not": "a record" }\n');
    await expect(read()).rejects.toThrow(/invalid record/);
    expect(heap).toEqual({ lifted: [true, false, true], read: 2, refused: 1 });
  });
});
