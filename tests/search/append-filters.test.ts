/**
 * format.ts: an append changes index.json, the last documents file, the shards of the new record's words and its
 * filters' files, "and nothing else". Filter files are numbered by the value's place in sorted order
 * (build-index.ts, filterPath(facet, n)), so a record bringing a facet's first record with a value that sorts before
 * others (e.g. a first "Invited …" independence class before "Unsolicited independent") renumbers every later value's
 * file: those files change too. Known defect; the test passes once filter files keep their names across an append.
 */
import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../src/core/search/build-index.ts';
import { DOCUMENTS_PER_FILE, type SearchDocumentInput } from '../../src/core/search/format.ts';

function doc(n: number, kind: string): SearchDocumentInput {
  return { page: `records/r${n}/`, id: `r${n}`, title: `Agent ${n}`, kind, status: 'Accepted', date: '2026-01-01', withdrawn: false, text: `record ${n}`, filters: { record_kind: kind } };
}

describe('search index append', () => {
  it.fails('a new filter value that sorts before others changes only its own filter file', () => {
    const docs = [doc(0, 'Echo'), doc(1, 'Report')];
    const a = buildSearchIndex(docs);
    const b = buildSearchIndex([...docs, doc(2, 'Note')]);
    const changed = [...b.keys()].filter((k) => !a.get(k)?.equals(b.get(k)!)).sort();
    expect(Math.floor(2 / DOCUMENTS_PER_FILE)).toBe(0);
    // index.json, documents/0, the shards of "record" and "2", and the one file of the value "Note"; today also
    // the file of "Report", renumbered from 1 to 2.
    const filterFiles = changed.filter((k) => k.startsWith('filters/'));
    expect(filterFiles).toHaveLength(1);
  });
});
