/**
 * readSiteArchive lifts a large archive's heap limit (src/site/build/large-archive.ts) only when the records come from
 * the site record cache, for the rest of the build when the pages are expected from the cache too, else while it
 * reads, and puts it back when the archive is refused: a build that parses every record, or renders every page, makes
 * the garbage the limit is there for.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// The real module, its lifting counted: the flag itself is the process's, and is not set in this test's process.
const heap = vi.hoisted(() => ({ lifted: 0, restored: 0 }));
vi.mock('../../src/site/build/large-archive.ts', async (actual) => ({
  ...(await actual<typeof import('../../src/site/build/large-archive.ts')>()),
  freerHeapGrowthForCachedRecords: () => {
    heap.lifted++;
    return () => void heap.restored++;
  },
}));

const quiet = { info: () => undefined, warn: () => undefined };

describe('readSiteArchive and the heap limit', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('lifts it only for records from a warm cache, and leaves it lifted unless the archive is refused', async () => {
    const root = join(tempDir('echo-archive-heap-'), 'records');
    cpSync(join(REPO_ROOT, 'records'), root, { recursive: true });
    vi.stubEnv('ECHO_ARCHIVE_CACHE_DIR', tempDir('echo-archive-heap-cache-'));
    vi.stubEnv('ECHO_ARCHIVE_NO_CACHE', undefined);
    const read = () => readSiteArchive(root, quiet, { repo: REPO_ROOT, pagesFromCache: true });

    await readSiteArchive(root, quiet); // no cache at all
    await read(); // an empty cache: every record parsed, the cache filled
    expect(heap).toEqual({ lifted: 0, restored: 0 });

    await read(); // the records from the cache, the pages expected from the cache too: the build goes on with them
    expect(heap).toEqual({ lifted: 1, restored: 0 });

    // The records from the cache, but not the pages (another configuration): put back once the records are read.
    await readSiteArchive(root, quiet, { repo: REPO_ROOT, pagesFromCache: false });
    expect(heap).toEqual({ lifted: 2, restored: 1 });

    writeFileSync(join(root, '2026', 'echo-2026-01-01-999999.json'), '{ "not": "a record" }\n');
    await expect(read()).rejects.toThrow(/invalid record/);
    expect(heap).toEqual({ lifted: 3, restored: 2 });
  });
});
