/**
 * The search index of a site build (src/site/build/7-search-segments.ts, on its thread: 7-search-index.ts,
 * 7-search-index-worker.ts): batches of documents coming in any order give the very files buildSearchIndex makes from
 * the same documents, segment by segment, also with segments and compressed files from the build cache; a segment
 * the cache holds is not read; a reference to the page cache is read and checked only when its segment is made; a
 * batch that does not belong (a document twice, lines missing) is reported, and the output is then left alone.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { buildSearchIndex, indexedDocument } from '../../src/core/search/build-index.ts';
import { DEFAULT_LAYOUT, SEARCH_INDEX_DIR } from '../../src/core/search/format.ts';
import { archiveOrder } from '../../src/core/search/archive-order.ts';
import { searchDocumentReference, startSearchIndex, writeSearchDocuments } from '../../src/site/build/7-search-index.ts';
import { SegmentedSearchIndex } from '../../src/site/build/7-search-segments.ts';
import { searchIndexCache } from '../../src/site/build/cache/search-index-cache.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ids = Array.from({ length: 30 }, (_, i) => `echo-2026-03-01-${String(i + 1).padStart(6, '0')}`);
const docs = ids.map((id, i) =>
  indexedDocument({ page: `/records/${id}/`, id, title: `Agent ${i}`, kind: 'echo', status: 'accepted_echo', date: '2026-03-01', withdrawn: false, text: `record ${i} reads the manifest ${i % 3 === 0 ? 'registry' : 'hashes'}`, filters: { record_kind: i % 4 ? 'echo' : 'report' } }),
);
/** Blocks of 8 documents: 30 documents are segments of 16, 8 and 6. */
const layout = { ...DEFAULT_LAYOUT, segmentBlock: 8 };

/** Writes the documents in batches (lists of document numbers), each as a file; [file, ids] per batch. */
function batchesOf(order: number[][], line: (i: number) => string = (i) => JSON.stringify(docs[i])): [string, string[]][] {
  const dir = tempDir('echo-search-thread-');
  return order.map((batch, n) => {
    const file = join(dir, `${n}.jsonl`);
    writeSearchDocuments(file, batch.map(line));
    return [file, batch.map((i) => ids[i]!)];
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** The files of a clean build of the first `n` documents, with `layout`. */
const clean = (n: number, how = layout) => buildSearchIndex(archiveOrder(docs.slice(0, n), (d) => d.document.id), how);

function expectSite(out: string, expected: Map<string, Buffer>): void {
  for (const [path, bytes] of expected) expect(readFileSync(join(out, SEARCH_INDEX_DIR, path)), path).toEqual(bytes);
  const written = readdirSync(join(out, SEARCH_INDEX_DIR), { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
  expect(written.length).toBe(expected.size);
}

describe('the site build\'s search index, segment by segment', () => {
  it('writes what buildSearchIndex makes, whatever order the batches come in', () => {
    const out = tempDir('echo-search-thread-out-');
    const index = new SegmentedSearchIndex(ids, { layout });
    // Batches of neighbours, last first, one across two segments; and one whose records are spread over the archive
    // (records archived under earlier dates are rendered with the others of their date).
    const spread = range(0, 10).filter((i) => i % 3 !== 0).concat([12, 25]);
    const rest = range(0, 30).filter((i) => !spread.includes(i));
    for (const [file, batch] of batchesOf([rest.slice(10), spread, rest.slice(0, 10)])) index.add(file, batch);
    const { written, segmentsMade, segmentsKept } = index.write(out);
    const expected = clean(30);
    expect(written).toBe(expected.size);
    expect([segmentsMade, segmentsKept]).toEqual([3, 0]);
    expectSite(out, expected);
  });

  it('given the site\'s folder from the start, puts each segment\'s files there as soon as it is done; write() adds the manifest', () => {
    const out = tempDir('echo-search-thread-out-');
    const index = new SegmentedSearchIndex(ids, { layout, out });
    const [first, second] = batchesOf([range(0, 16), range(16, 30)]);
    index.add(...first!);
    // The first segment (documents 0 … 15) is complete: its files are in the folder, the later ones' not yet.
    const expected = clean(30);
    const firstFiles = [...expected.keys()].filter((p) => p.startsWith('segments/0/'));
    expect(firstFiles.length).toBeGreaterThan(0);
    for (const path of firstFiles) expect(readFileSync(join(out, SEARCH_INDEX_DIR, path)), path).toEqual(expected.get(path));
    expect(existsSync(join(out, SEARCH_INDEX_DIR, 'index.json'))).toBe(false);
    index.add(...second!);
    const { written, files } = index.write(out);
    expect(written).toBe(expected.size);
    expect(files.map((f) => f.slice(SEARCH_INDEX_DIR.length + 1)).sort()).toEqual([...expected.keys()].sort());
    expectSite(out, expected);
  });

  it('with a cache: an append makes the last segment only, the others are kept whole and not read; the bytes are a clean build\'s', () => {
    const cacheDir = tempDir('echo-search-thread-cache-');
    const build = (n: number, line?: (i: number) => string) => {
      const out = tempDir('echo-search-thread-out-');
      const index = new SegmentedSearchIndex(ids.slice(0, n), { layout, cache: searchIndexCache(cacheDir), code: 'code' });
      for (const [file, batch] of batchesOf([range(0, n)], line)) index.add(file, batch);
      return { out, ...index.write(out) };
    };
    const first = build(29);
    expect([first.reused, first.segmentsMade]).toEqual([0, 3]);
    // One more record (appended). The two whole segments' documents are given as references to page cache entries
    // that do not exist, with their lines' hashes: a segment that was read would fail the build.
    const unread = (i: number) => (i < 24 ? searchDocumentReference(`00/${'0'.repeat(64)}.${sha256Hex(JSON.stringify(docs[i]))}.json`) : JSON.stringify(docs[i]));
    const second = build(30, unread);
    expect([second.segmentsKept, second.segmentsMade]).toEqual([2, 1]);
    expectSite(second.out, clean(30));
    // Of the last segment's files, those whose content did not change came compressed from the cache too.
    const lastFiles = [...clean(30).keys()].filter((p) => p.startsWith('segments/24/')).length;
    const keptFiles = [...clean(30).keys()].filter((p) => /^segments\/(0|16)\//.test(p) || /^documents\/[0-2]\./.test(p)).length;
    expect(second.reused).toBeGreaterThan(keptFiles);
    expect(second.reused).toBeLessThan(keptFiles + lastFiles);
    // Every entry damaged: none is used, the output is still a clean build's.
    for (const entry of readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && d.name !== 'checked-before')) appendFileSync(join(entry.parentPath, entry.name), 'x');
    const third = build(30);
    expect([third.reused, third.segmentsKept]).toEqual([0, 0]);
    expectSite(third.out, clean(30));
    // Nothing changed: every segment kept, every file linked from the cache; the cache holds this build's files only.
    const fourth = build(30);
    expect([fourth.segmentsKept, fourth.segmentsMade]).toEqual([3, 0]);
    expectSite(fourth.out, clean(30));
    const entries = readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && d.name.endsWith('.gz'));
    expect(entries.length).toBeLessThanOrEqual(clean(30).size - 1);
  });

  it('a segment made again after one of its documents changed takes its unchanged files from the cache, not compressing them again', () => {
    const cacheDir = tempDir('echo-search-thread-cache-');
    const changed = indexedDocument({ ...docs[3]!.document, text: 'record 3 now reads something else entirely' });
    const build = (line: (i: number) => string) => {
      const out = tempDir('echo-search-thread-out-');
      const index = new SegmentedSearchIndex(ids, { layout, cache: searchIndexCache(cacheDir), code: 'code' });
      for (const [file, batch] of batchesOf([range(0, 30)], line)) index.add(file, batch);
      return { out, ...index.write(out) };
    };
    build((i) => JSON.stringify(docs[i]));
    // A build that keeps every segment whole in between: the files' entries must stay for a segment made again.
    expect(build((i) => JSON.stringify(docs[i])).segmentsKept).toBe(3);
    const after = build((i) => JSON.stringify(i === 3 ? changed : docs[i]));
    expect([after.segmentsKept, after.segmentsMade]).toEqual([2, 1]);
    const expected = buildSearchIndex(archiveOrder(docs.map((d, i) => (i === 3 ? changed : d)), (d) => d.document.id), layout);
    expectSite(after.out, expected);
    // Of the 16-document segment's files, only those document 3 is in (its documents file, its old and new words'
    // terms files) are new: every other file of the index came from the cache.
    const segmentZero = [...expected.keys()].filter((p) => p.startsWith('segments/0/') || /^documents\/[01]\./.test(p)).length;
    expect(after.reused).toBeGreaterThan(expected.size - 1 - segmentZero + segmentZero / 2);
    expect(after.reused).toBeLessThan(expected.size - 1);
  });

  it('another code makes every segment again', () => {
    const cacheDir = tempDir('echo-search-thread-cache-');
    const made = (code: string) => {
      const index = new SegmentedSearchIndex(ids, { layout, cache: searchIndexCache(cacheDir), code });
      for (const [file, batch] of batchesOf([range(0, 30)])) index.add(file, batch);
      return index.write(tempDir('echo-search-thread-out-')).segmentsMade;
    };
    expect([made('a'), made('a'), made('b')]).toEqual([3, 0, 3]);
  });

  it('reads a reference to the page cache when its segment is made, and refuses an entry that changed (removing it)', () => {
    const pages = tempDir('echo-search-thread-pages-');
    mkdirSync(join(pages, 'ab'));
    const entryOf = (i: number) => {
      const line = JSON.stringify(docs[i]);
      const name = `ab/${sha256Hex(`key ${i}`)}.${sha256Hex(line)}.json`;
      writeFileSync(join(pages, name), line);
      return name;
    };
    const names = ids.map((_, i) => entryOf(i));
    const out = tempDir('echo-search-thread-out-');
    const index = new SegmentedSearchIndex(ids, { layout, pageCacheDir: pages });
    for (const [file, batch] of batchesOf([range(0, 30)], (i) => searchDocumentReference(names[i]!))) index.add(file, batch);
    index.write(out);
    expectSite(out, clean(30));
    // An entry that no longer holds its line is refused, naming the record, and removed from the cache.
    writeFileSync(join(pages, names[3]!), JSON.stringify(docs[4]));
    const again = new SegmentedSearchIndex(ids, { layout, pageCacheDir: pages });
    const [file, batch] = batchesOf([range(0, 30)], (i) => searchDocumentReference(names[i]!))[0]!;
    expect(() => again.add(file, batch)).toThrow(new RegExp(`${ids[3]}'s search document .* no longer holds its line`));
    expect(existsSync(join(pages, names[3]!))).toBe(false);
    expect(() => new SegmentedSearchIndex(ids, { layout }).add(file, batch)).toThrow(/in a page cache this build was not told of/);
  });

  it('asks for the documents the page cache cannot give when their segment is made, and makes it once they are given', () => {
    const pages = tempDir('echo-search-thread-pages-');
    mkdirSync(join(pages, 'ab'));
    const names = docs.map((doc, i) => {
      const line = JSON.stringify(doc);
      const name = `ab/${sha256Hex(`key ${i}`)}.${sha256Hex(line)}.json`;
      writeFileSync(join(pages, name), line);
      return name;
    });
    // Number 2 gone, number 20 damaged: in the first segment (16) and the second (8).
    rmSync(join(pages, names[2]!));
    writeFileSync(join(pages, names[20]!), JSON.stringify(docs[21]));
    const asked: string[][] = [];
    const out = tempDir('echo-search-thread-out-');
    const index = new SegmentedSearchIndex(ids, { layout, pageCacheDir: pages, ask: (wanted) => asked.push(wanted) });
    for (const [file, batch] of batchesOf([range(0, 30)], (i) => searchDocumentReference(names[i]!))) index.add(file, batch);
    expect(asked).toEqual([[ids[2]], [ids[20]]]);
    expect(existsSync(join(pages, names[20]!))).toBe(false);
    expect(index.waitingForDocuments).toBe(true);
    expect(() => index.write(out)).toThrow(/documents asked for were never given/);
    expect(() => index.give([ids[5]!], [JSON.stringify(docs[5])])).toThrow(/not asked for/);
    index.give([ids[20]!, ids[2]!], [JSON.stringify(docs[20]), JSON.stringify(docs[2])]);
    expect(index.waitingForDocuments).toBe(false);
    index.write(out);
    expectSite(out, clean(30));
  });

  it('refuses a document twice, one never given, a batch whose lines and records differ, a reference that names no entry', () => {
    const twice = new SegmentedSearchIndex(ids, { layout });
    const [a, b] = batchesOf([[0, 1, 2], [2, 3]]);
    twice.add(...a!);
    expect(() => twice.add(...b!)).toThrow(/added twice/);
    const partial = new SegmentedSearchIndex(ids, { layout });
    partial.add(...batchesOf([[0, 1, 2]])[0]!);
    const out = tempDir('echo-search-thread-out-');
    expect(() => partial.write(out)).toThrow(new RegExp(`document ${ids[3]} was never added`));
    expect(existsSync(join(out, SEARCH_INDEX_DIR))).toBe(false);
    const [file] = batchesOf([[0, 1, 2]])[0]!;
    expect(() => new SegmentedSearchIndex(ids, { layout }).add(file, ids.slice(0, 4))).toThrow(/fewer lines than its batch has records/);
    expect(() => new SegmentedSearchIndex(ids, { layout }).add(file, ids.slice(0, 2))).toThrow(/more lines than its batch has records/);
    const [bad, badIds] = batchesOf([[0]], () => searchDocumentReference('../../etc/passwd'))[0]!;
    expect(() => new SegmentedSearchIndex(ids, { layout }).add(bad, badIds)).toThrow(/names no search document of the page cache/);
  });
});

describe('startSearchIndex (its thread)', () => {
  it('writes what buildSearchIndex makes, with and without a cache', async () => {
    const pageCacheDir = tempDir('echo-search-thread-pages-');
    for (const cache of [undefined, { cacheDir: tempDir('echo-search-thread-cache-'), code: 'code', pageCacheDir }]) {
      const out = tempDir('echo-search-thread-out-');
      const run = startSearchIndex(ids.map((id) => ({ id })), cache);
      for (const [file, batch] of batchesOf([range(20, 30), range(0, 20)])) run.add(file, batch);
      const written = await run.write(out);
      expect(written.written).toBe(clean(30, DEFAULT_LAYOUT).size);
      expectSite(out, clean(30, DEFAULT_LAYOUT));
    }
  });

  it('makes the documents its thread asks for with the function it was given, and fails without one', async () => {
    const pageCacheDir = tempDir('echo-search-thread-pages-');
    // References to entries that are not there: every document is asked for.
    const gone = (i: number) => searchDocumentReference(`ab/${sha256Hex(`key ${i}`)}.${sha256Hex(JSON.stringify(docs[i]))}.json`);
    const settings = { cacheDir: tempDir('echo-search-thread-cache-'), code: 'code', pageCacheDir };
    const made: string[] = [];
    const run = startSearchIndex(ids.map((id) => ({ id })), settings, undefined, (wanted) => {
      made.push(...wanted);
      return wanted.map((id) => JSON.stringify(docs[ids.indexOf(id)]));
    });
    for (const [file, batch] of batchesOf([range(20, 30), range(0, 20)], gone)) run.add(file, batch);
    const out = tempDir('echo-search-thread-out-');
    await run.write(out);
    expectSite(out, clean(30, DEFAULT_LAYOUT));
    expect([...made].sort()).toEqual([...ids].sort());
    const without = startSearchIndex(ids.map((id) => ({ id })), { ...settings, cacheDir: tempDir('echo-search-thread-cache-') });
    for (const [file, batch] of batchesOf([range(0, 30)], gone)) without.add(file, batch);
    await expect(without.write(tempDir('echo-search-thread-out-'))).rejects.toThrow(/is not in the page cache/);
  });

  it('reports an error of its thread when the index is to be written, and writes nothing', async () => {
    const out = tempDir('echo-search-thread-out-');
    const run = startSearchIndex(ids.map((id) => ({ id })));
    for (const [file, batch] of batchesOf([[0, 1, 2], [2, 3]])) run.add(file, batch);
    await expect(run.write(out)).rejects.toThrow(/search index: .*added twice/);
    expect(existsSync(join(out, SEARCH_INDEX_DIR))).toBe(false);
    const never = startSearchIndex(ids.map((id) => ({ id })));
    for (const [file, batch] of batchesOf([[0, 1, 2]])) never.add(file, batch);
    await expect(never.write(tempDir('echo-search-thread-out-'))).rejects.toThrow(/never added/);
  });
});
