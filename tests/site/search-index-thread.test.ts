/**
 * The search index's own thread (src/site/build/7-search-index.ts, 7-search-index-worker.ts): documents files folded
 * in as they come, in any order, give the very files buildSearchIndex makes from the same documents, also with
 * compressed files from the build cache; a file that does not belong (a document twice) is reported when the index is
 * to be written, and the output is then left alone.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, indexedDocument } from '../../src/core/search/build-index.ts';
import { SEARCH_INDEX_DIR } from '../../src/core/search/format.ts';
import { archiveOrder } from '../../src/core/search/archive-order.ts';
import { startSearchIndex, writeSearchDocuments } from '../../src/site/build/7-search-index.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ids = Array.from({ length: 30 }, (_, i) => `echo-2026-03-01-${String(i + 1).padStart(6, '0')}`);
const docs = ids.map((id, i) =>
  indexedDocument({ page: `/records/${id}/`, id, title: `Agent ${i}`, kind: 'echo', status: 'accepted_echo', date: '2026-03-01', withdrawn: false, text: `record ${i} reads the manifest ${i % 3 === 0 ? 'registry' : 'hashes'}`, filters: { record_kind: 'echo' } }),
);

/** Writes the documents in files of `size`, in the given order of files; their paths. */
function filesOf(order: number[][]): string[] {
  const dir = tempDir('echo-search-thread-');
  return order.map((batch, n) => {
    const file = join(dir, `${n}.jsonl`);
    writeSearchDocuments(file, batch.map((i) => JSON.stringify(docs[i])));
    return file;
  });
}

describe('startSearchIndex', () => {
  it('writes what buildSearchIndex makes, whatever order the batches come in', async () => {
    const out = tempDir('echo-search-thread-out-');
    const run = startSearchIndex(ids.map((id) => ({ id })));
    // Batches of neighbours, last first.
    for (const file of filesOf([[20, 21, 22, 23, 24, 25, 26, 27, 28, 29], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]])) run.add(file);
    const { written } = await run.write(out);
    const expected = buildSearchIndex(archiveOrder(docs, (d) => d.document.id));
    expect(written).toBe(expected.size);
    for (const [path, bytes] of expected) expect(readFileSync(join(out, SEARCH_INDEX_DIR, path)), path).toEqual(bytes);
  });

  it('with a cache of compressed files: the same bytes, every unchanged file from the cache, a damaged entry not trusted', async () => {
    const cacheDir = tempDir('echo-search-thread-cache-');
    const all = Array.from({ length: 30 }, (_, i) => i);
    const build = async (ids_: string[], batches: number[][]) => {
      const out = tempDir('echo-search-thread-out-');
      const run = startSearchIndex(ids_.map((id) => ({ id })), cacheDir);
      for (const file of filesOf(batches)) run.add(file);
      return { out, ...(await run.write(out)) };
    };
    const first = await build(ids.slice(0, 29), [all.slice(0, 29)]);
    expect(first.reused).toBe(0);
    // One more record (appended): most files unchanged, taken from the cache; the bytes are a clean build's.
    const second = await build(ids, [all]);
    const expected = buildSearchIndex(archiveOrder(docs, (d) => d.document.id));
    for (const [path, bytes] of expected) expect(readFileSync(join(second.out, SEARCH_INDEX_DIR, path)), path).toEqual(bytes);
    expect(second.reused).toBeGreaterThan(0);
    expect(second.reused).toBeLessThan(second.written);
    // Every entry damaged: none is used, the output is still a clean build's.
    for (const entry of readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile())) appendFileSync(join(entry.parentPath, entry.name), 'x');
    const third = await build(ids, [all]);
    expect(third.reused).toBe(0);
    for (const [path, bytes] of expected) expect(readFileSync(join(third.out, SEARCH_INDEX_DIR, path)), path).toEqual(bytes);
    // The cache holds this build's files only.
    const entries = readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(entries.length).toBeLessThanOrEqual(third.written);
  });

  it('reports a document given twice, and writes nothing', async () => {
    const out = tempDir('echo-search-thread-out-');
    const run = startSearchIndex(ids.map((id) => ({ id })));
    for (const file of filesOf([[0, 1, 2], [2, 3]])) run.add(file);
    await expect(run.write(out)).rejects.toThrow(/search index: .*added twice/);
    expect(existsSync(join(out, SEARCH_INDEX_DIR))).toBe(false);
  });

  it('reports a record never given', async () => {
    const run = startSearchIndex(ids.map((id) => ({ id })));
    for (const file of filesOf([[0, 1, 2]])) run.add(file);
    await expect(run.write(tempDir('echo-search-thread-out-'))).rejects.toThrow(/never added/);
  });
});
