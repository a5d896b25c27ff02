/**
 * The archive's search index (src/core/search): built in memory from documents and read back through the same
 * fetch function the search page and the MCP server give it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex as buildFrom, indexedDocument, SearchIndexBuilder, termCounts } from '../../src/core/search/build-index.ts';
import { excerptOf, excerptText } from '../../src/core/search/excerpt.ts';
import { DEFAULT_LAYOUT, DOCUMENTS_PER_FILE, type SearchBuildLayout, type SearchDocumentInput, type SearchIndexManifest } from '../../src/core/search/format.ts';
import { segmentIndexOf, segmentsOf } from '../../src/core/search/segments.ts';
import { SearchIndex } from '../../src/core/search/search-index.ts';
import { wordsOf } from '../../src/core/search/words.ts';

/** The index of plain documents (their terms cut here, as the record-page threads cut them). */
const buildSearchIndex = (docs: SearchDocumentInput[], layout?: SearchBuildLayout) => buildFrom(docs.map(indexedDocument), layout);

function doc(n: number, text: string, filters: Record<string, string> = { record_kind: 'Echo' }): SearchDocumentInput {
  return { page: `records/r${n}/`, id: `r${n}`, title: `Agent ${n}`, kind: filters.record_kind ?? 'Echo', status: 'Accepted', date: '2026-01-01', withdrawn: false, text, filters };
}

async function open(docs: SearchDocumentInput[], layout?: SearchBuildLayout) {
  const files = buildSearchIndex(docs, layout);
  const fetched: string[] = [];
  const index = await SearchIndex.open(async (path) => {
    fetched.push(path);
    return files.get(path);
  });
  return { index, files, fetched };
}

const ids = async (index: SearchIndex, q: string | null, filters?: Record<string, string>) => {
  const answer = await index.search(q, filters);
  return Promise.all([...answer.ranked].map(async (o) => (await index.document(o)).id));
};

describe('words', () => {
  it('cuts on anything but letters and digits, in lower case, NFKC; unspaced scripts by character', () => {
    expect(wordsOf('Line-endings: CRLF, ﬁle 42')).toEqual(['line', 'endings', 'crlf', 'file', '42']);
    expect(wordsOf('日本語のtext')).toEqual(['日', '本', '語', 'の', 'text']);
    expect(wordsOf('café naïve')).toEqual(['café', 'naïve']);
  });
});

describe('indexed documents', () => {
  it('carry each term of the text with its count, read back as pairs (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const words = wordsOf(text);
        const expected = new Map<string, number>();
        for (const w of words) expected.set(w, (expected.get(w) ?? 0) + 1);
        const indexed = indexedDocument(doc(0, text));
        expect(indexed.length).toBe(words.length);
        expect(new Map(termCounts(indexed))).toEqual(expected);
      }),
    );
  });
});

describe('search index', () => {
  it('finds records with every word, the last also as a prefix, best first', async () => {
    const { index } = await open([
      doc(0, 'The registry hashes every file.'),
      doc(1, 'Registry of names only.'),
      doc(2, 'Hashes hashes hashes, the registry again.'),
      doc(3, 'Nothing relevant here.'),
    ]);
    expect(await ids(index, 'registry hashes')).toEqual(['r2', 'r0']);
    expect(await ids(index, 'registry has')).toEqual(['r2', 'r0']);
    // Only the last word is a prefix: "regis" is not a word of any record.
    expect(await ids(index, 'regis hashes')).toEqual([]);
    expect(await ids(index, 'nothing')).toEqual(['r3']);
  });

  it('ranks an exact word above a longer word it starts', async () => {
    const { index } = await open([doc(0, 'Echo 41880 and more'), doc(1, 'Echo 4188'), doc(2, 'Echo 418800')]);
    expect((await ids(index, 'Echo 4188'))[0]).toBe('r1');
  });

  it('filters: alone (newest first) and with words; an unknown value finds nothing', async () => {
    const { index } = await open([doc(0, 'alpha', { record_kind: 'Echo' }), doc(1, 'alpha', { record_kind: 'Report' }), doc(2, 'beta', { record_kind: 'Echo' })]);
    expect(await ids(index, null, { record_kind: 'Echo' })).toEqual(['r2', 'r0']);
    expect(await ids(index, 'alpha', { record_kind: 'Report' })).toEqual(['r1']);
    expect(await ids(index, 'alpha', { record_kind: 'Nope' })).toEqual([]);
    expect(index.filterValues('record_kind')).toEqual([{ value: 'Echo', documents: 2 }, { value: 'Report', documents: 1 }]);
  });

  it('corrects a misspelt word to the nearest word of the index when that finds more, and says so', async () => {
    const { index } = await open([doc(0, 'the manifest lists files'), doc(1, 'a manifest again'), doc(2, 'unrelated text')]);
    const answer = await index.search('manfiest files');
    expect(answer.corrected).toEqual({ query: 'manifest files', typedTotal: 0 });
    expect(answer.total).toBe(1);
    expect((await index.search('manifest files')).corrected).toBeUndefined();
    // Three letters allow no edit: "teh" stays as typed.
    expect((await index.search('teh')).corrected).toBeUndefined();
  });

  it('never corrects a word with a digit: a hash or number the archive lacks finds nothing', async () => {
    const hash = '0123456789abcdef'.repeat(4);
    const { index } = await open([doc(0, `hash ${hash} and release 1000`), doc(1, 'release notes')]);
    expect((await index.search(hash)).total).toBe(1);
    const oneOff = `${hash.slice(0, -1)}c`;
    for (const q of [oneOff, 'release 1001']) {
      const answer = await index.search(q);
      expect([answer.total, answer.corrected], q).toEqual([0, undefined]);
    }
  });

  it('fetches only the files a query needs', async () => {
    const docs = Array.from({ length: 100 }, (_, i) => doc(i, `record ${i} about ${i % 2 ? 'oranges' : 'apples'}`));
    const { index, fetched, files } = await open(docs);
    await index.search('apples');
    expect(fetched).toEqual(['index.json', 'segments/0/terms/617070.json.gz']);
    expect(files.size).toBeGreaterThan(20);
  });

  it('builds the same bytes for the same documents, and an append changes only the files it must', () => {
    const docs = Array.from({ length: 40 }, (_, i) => doc(i, `record ${i} words w${i % 7}`));
    const a = buildSearchIndex(docs);
    expect(buildSearchIndex(docs)).toEqual(a);
    const b = buildSearchIndex([...docs, doc(40, 'record 40 words fresh')]);
    const changed = [...b.keys()].filter((k) => !a.get(k)?.equals(b.get(k)!)).sort();
    // index.json, the last documents file, the filter's file, and the shards of the new document's words.
    expect(changed).toEqual(['documents/5.json.gz', `segments/0/filters/7265636f72645f6b696e64/${Buffer.from('Echo').toString('hex')}.json.gz`, 'index.json', 'segments/0/terms/3430.json.gz', 'segments/0/terms/667265.json.gz', 'segments/0/terms/726563.json.gz', 'segments/0/terms/776f72.json.gz'].sort());
    expect(Math.floor(40 / DOCUMENTS_PER_FILE)).toBe(5);
  });

  it('a new filter value changes only its own filter file, not the files of the values after it', () => {
    const docs = [doc(0, 'x', { record_kind: 'Echo' }), doc(1, 'x', { record_kind: 'Report' })];
    const a = buildSearchIndex(docs);
    const b = buildSearchIndex([...docs, doc(2, 'x', { record_kind: 'Note' })]);
    const changed = [...b.keys()].filter((k) => !a.get(k)?.equals(b.get(k)!) && k.includes('/filters/'));
    expect(changed).toEqual([`segments/0/filters/7265636f72645f6b696e64/${Buffer.from('Note').toString('hex')}.json.gz`]);
  });

  it('the builder takes documents in any order and numbers them by the archive order; none may be missing', () => {
    const docs = Array.from({ length: 30 }, (_, i) => doc(i, `record ${i} words w${i % 5}`, { record_kind: i % 3 ? 'Echo' : 'Report' }));
    const builder = new SearchIndexBuilder(docs.map((d) => d.id));
    for (const d of fc.sample(fc.shuffledSubarray(docs, { minLength: docs.length }), 1)[0]!) builder.add(indexedDocument(d));
    const expected = buildSearchIndex(docs);
    const entries = builder.entries();
    expect(new Map(entries)).toEqual(expected);
    expect(() => builder.files()).toThrow(/made already/);
    const partial = new SearchIndexBuilder(docs.map((d) => d.id));
    partial.add(indexedDocument(docs[0]!));
    expect(() => partial.files()).toThrow(/r1 was never added/);
    expect(() => partial.add(indexedDocument(docs[0]!))).toThrow(/added twice/);
    expect(() => partial.add(indexedDocument(doc(99, 'stranger')))).toThrow(/not in the archive order/);
  });

  it('reads the files as index.json says they are cut, not as its own defaults would cut them', async () => {
    const docs = Array.from({ length: 25 }, (_, i) => doc(i, `record ${i} about ${['apples', 'apricots', 'oranges'][i % 3]} and registry hashes`));
    const layout = { documentsPerFile: 3, shardKeyLength: 2, segmentBlock: 6 };
    const files = buildSearchIndex(docs, layout);
    expect(JSON.parse(files.get('index.json')!.toString())).toMatchObject({ documentsPerFile: 3, shardKeyLength: 2 });
    // Two-letter shards: "apples" and "apricots" share one file; 25 documents in files of three.
    expect(files.has(`segments/0/terms/${Buffer.from('ap').toString('hex')}.json.gz`)).toBe(true);
    expect(files.has('documents/8.json.gz')).toBe(true);
    const fetched: string[] = [];
    const index = await SearchIndex.open(async (path) => (fetched.push(path), files.get(path)));
    const { index: usual } = await open(docs);
    for (const q of ['apples', 'apr', 'registry hashes', 'oranges record', 'registy']) {
      expect(await ids(index, q), q).toEqual(await ids(usual, q));
    }
    // A two-letter word is a prefix here (apples and apricots), where three letters make one in the usual layout.
    expect((await index.search('ap')).total).toBe(17);
    expect((await usual.search('ap')).total).toBe(0);
    // Segments of 24 (16 + 8, blocks of 6 as a binary counter: 4 blocks = 24) and the last one document.
    expect(fetched).toContain(`segments/0/terms/${Buffer.from('ap').toString('hex')}.json.gz`);
    expect(fetched).toContain(`segments/24/terms/${Buffer.from('ap').toString('hex')}.json.gz`);
    expect(fetched).toContain('documents/8.json.gz');
  });

  it('refuses an index.json whose layout is not whole numbers from 1, and the builder such a layout', async () => {
    const files = buildSearchIndex([doc(0, 'one record')]);
    const manifest = JSON.parse(files.get('index.json')!.toString()) as Record<string, unknown>;
    for (const [field, value] of [['shardKeyLength', 0], ['shardKeyLength', '3'], ['documentsPerFile', 2.5], ['documentsPerFile', undefined]] as const) {
      const bad = Buffer.from(JSON.stringify({ ...manifest, [field]: value }));
      await expect(SearchIndex.open(async (path) => (path === 'index.json' ? bad : files.get(path))), `${field} ${value}`).rejects.toThrow(new RegExp(`index.json is not usable: ${field} must be a whole number from 1`));
    }
    expect(() => new SearchIndexBuilder(['r0'], undefined, { ...DEFAULT_LAYOUT, documentsPerFile: 0 })).toThrow(/documentsPerFile must be a whole number from 1, not 0/);
    expect(() => new SearchIndexBuilder(['r0'], undefined, { ...DEFAULT_LAYOUT, segmentBlock: 12 })).toThrow(/segmentBlock must be a multiple of documentsPerFile \(8\), not 12/);
    // Segments that do not cover the documents in order are refused too: a reader concatenates their postings.
    const segments = manifest.segments as SearchIndexManifest['segments'];
    for (const [bad, problem] of [
      [[], /the segments hold 0 documents, not 1/],
      [[{ ...segments[0]!, start: 1 }], /segment 1 does not follow document -1/],
      [[segments[0]!, segments[0]!], /segment 0 does not follow document 0/],
      [[{ ...segments[0]!, count: 0 }], /segment 0 must hold a whole number of documents from 1, not 0/],
      [[{ ...segments[0]!, filters: null }], /segment 0 must list its filters' values/],
      ['0-1', /segments must be a list/],
    ] as const) {
      const text = Buffer.from(JSON.stringify({ ...manifest, segments: bad }));
      await expect(SearchIndex.open(async (path) => (path === 'index.json' ? text : files.get(path))), JSON.stringify(bad)).rejects.toThrow(problem);
    }
  });

  it('cuts segments as a binary counter of blocks, then the rest: in order, covering every document (property)', () => {
    expect(segmentsOf(0, 1024)).toEqual([]);
    expect(segmentsOf(702, 1024)).toEqual([{ start: 0, count: 702 }]);
    expect(segmentsOf(99_006, 1024)).toEqual([
      { start: 0, count: 65_536 },
      { start: 65_536, count: 32_768 },
      { start: 98_304, count: 702 },
    ]);
    expect(() => segmentsOf(5, 0)).toThrow(/segment block must be a whole number from 1/);
    fc.assert(
      fc.property(fc.nat({ max: 200_000 }), fc.integer({ min: 1, max: 5000 }), (n, block) => {
        const segments = segmentsOf(n, block);
        let next = 0;
        for (const [i, s] of segments.entries()) {
          expect(s.start).toBe(next);
          const last = i === segments.length - 1;
          // Whole segments are a power of two blocks, largest first; only the last may be a part of a block.
          if (!last || s.count % block === 0) expect(Math.log2(s.count / block) % 1).toBe(0);
          else expect(s.count).toBeLessThan(block);
          if (i > 0 && s.count % block === 0) expect(s.count).toBeLessThan(segments[i - 1]!.count);
          next += s.count;
        }
        expect(next).toBe(n);
        // Each document is in the segment segmentIndexOf names; none past the last.
        for (const o of [0, Math.floor(n / 2), n - 1].filter((o) => o >= 0 && o < n)) {
          const s = segments[segmentIndexOf(segments, o)]!;
          expect(o >= s.start && o < s.start + s.count).toBe(true);
        }
        expect(() => segmentIndexOf(segments, n)).toThrow(/no segment holds document/);
        // Appending one document changes the last segment only, unless it fills a block.
        const after = segmentsOf(n + 1, block);
        if ((n + 1) % block !== 0) expect(after.slice(0, -1)).toEqual(segments.filter((s) => s.count % block === 0));
      }),
    );
  });

  it('an index in many segments finds what one segment finds, in the same order (property)', async () => {
    const word = fc.constantFrom('apple', 'apricot', 'banana', 'cherry', 'registry', 'hashes', 'echo', 'eight');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(word, { minLength: 1, maxLength: 5 }), fc.constantFrom('Echo', 'Report', 'Note')), { minLength: 1, maxLength: 60 }),
        fc.constantFrom(2, 4, 8),
        async (texts, block) => {
          const docs = texts.map(([t, kind], i) => doc(i, t.join(' '), { record_kind: kind }));
          const { index: one } = await open(docs, { ...DEFAULT_LAYOUT, documentsPerFile: 2, segmentBlock: 1 << 20 });
          const { index: many, files } = await open(docs, { ...DEFAULT_LAYOUT, documentsPerFile: 2, segmentBlock: block });
          expect((JSON.parse(files.get('index.json')!.toString()) as SearchIndexManifest).segments.length).toBe(segmentsOf(docs.length, block).length);
          for (const q of ['apple', 'ap', 'registry hashes', 'echo eig', 'cherr', 'banan']) {
            for (const filters of [undefined, { record_kind: 'Report' }]) {
              const [a, b] = [await one.search(q, filters), await many.search(q, filters)];
              expect([[...b.ranked], b.total, b.corrected], `${q} ${JSON.stringify(filters)}`).toEqual([[...a.ranked], a.total, a.corrected]);
            }
          }
          expect(many.filterValues('record_kind')).toEqual(one.filterValues('record_kind'));
          expect(await ids(many, null, { record_kind: 'Note' })).toEqual(await ids(one, null, { record_kind: 'Note' }));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('an append changes only the last segment, until it fills a block: then the blocks merge', () => {
    const layout = { ...DEFAULT_LAYOUT, documentsPerFile: 2, segmentBlock: 4 };
    const docs = Array.from({ length: 12 }, (_, i) => doc(i, `record ${i} words w${i % 3}`));
    const segmentFiles = (files: Map<string, Buffer>, start: number) => [...files.keys()].filter((k) => k.startsWith(`segments/${start}/`));
    const before = buildSearchIndex(docs.slice(0, 9), layout); // 8 + 1
    const after = buildSearchIndex(docs.slice(0, 10), layout); // 8 + 2
    const changed = [...after.keys()].filter((k) => !before.get(k)?.equals(after.get(k)!));
    expect(changed.every((k) => k === 'index.json' || k.startsWith('segments/8/') || k === 'documents/4.json.gz'), changed.join()).toBe(true);
    for (const k of segmentFiles(after, 0)) expect(after.get(k)!.equals(before.get(k)!), k).toBe(true);
    // The third block: 8 + 4 (a whole segment now); the twelfth document fills it, so the segment of 8 is left alone.
    const filled = buildSearchIndex(docs, layout);
    expect((JSON.parse(filled.get('index.json')!.toString()) as SearchIndexManifest).segments.map((s) => [s.start, s.count])).toEqual([[0, 8], [8, 4]]);
    for (const k of segmentFiles(filled, 0)) expect(filled.get(k)!.equals(before.get(k)!), k).toBe(true);
    // A sixteenth fills the fourth block and carries: one segment of 16, every file of it new.
    const more = Array.from({ length: 16 }, (_, i) => doc(i, `record ${i} words w${i % 3}`));
    const carried = buildSearchIndex(more, layout);
    expect((JSON.parse(carried.get('index.json')!.toString()) as SearchIndexManifest).segments.map((s) => [s.start, s.count])).toEqual([[0, 16]]);
    expect(segmentFiles(carried, 8)).toEqual([]);
  });

  it('a document is found by each of its words (property)', async () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(word, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 }), fc.nat(), async (texts, pick) => {
        const docs = texts.map((t, i) => doc(i, t.join(' ')));
        const { index } = await open(docs);
        const i = pick % docs.length;
        for (const w of texts[i]!) {
          const answer = await index.search(w);
          expect([...answer.ranked]).toContain(i);
          // Without a correction, every result has the word (or, for 3+ letters, a word starting with it).
          if (!answer.corrected) {
            for (const o of answer.ranked) expect(texts[o]!.some((x) => x === w || (w.length >= 3 && x.startsWith(w)))).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('excerpt', () => {
  it('marks the matched words in a window around them, as plain text pieces', () => {
    const text = `${'lead '.repeat(50)}the <b>registry</b> hashes files ${'tail '.repeat(50)}`;
    const pieces = excerptOf(text, new Set(['registry', 'hashes']));
    expect(pieces.filter((p) => p.mark).map((p) => p.text)).toEqual(['registry', 'hashes']);
    expect(excerptText(pieces)).toMatch(/^… lead the <b>registry<\/b> hashes files tail/);
    expect(excerptText(pieces).endsWith(' …')).toBe(true);
  });
});
