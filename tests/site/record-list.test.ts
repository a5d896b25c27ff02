/**
 * The browse pages' string renderers: the record list (src/site/render/record-list.ts) and the facet filters
 * (src/site/render/facet-filters.ts). What each item and chip shows, the current value, the base path; and for
 * records full of hostile strings, only the renderer's own elements and links, every string kept as text.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DomUtils, parseDocument } from 'htmlparser2';
import { summarizeRecord } from '../../src/site/model/archive-model.ts';
import { facetCounts } from '../../src/site/model/facets.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { facetFiltersHtml } from '../../src/site/render/facet-filters.ts';
import { recordListHtml } from '../../src/site/render/record-list.ts';
import { REMOVE, echoWith, validEcho } from '../helpers/records.ts';

const paths = sitePaths('/');
const summary = (id: string, record: Record<string, unknown>, date: string | null = '2026-03-01') =>
  summarizeRecord({ id, path: `2026/${id}.json`, archiveDate: date, sha256: '0'.repeat(64), record });
const doc = (html: string) => parseDocument(html);
const all = (html: string, name: string) => DomUtils.getElementsByTagName(name, doc(html).children);
const text = (html: string) => DomUtils.textContent(doc(html));

describe('recordListHtml', () => {
  it('says so when there are no records', () => {
    expect(recordListHtml([], paths)).toBe('<p class="muted">No records.</p>');
  });

  it("shows each record's agent, id, date, kind, status, badges and excerpt, linked to its page", () => {
    const withdrawn = summary('echo-b', echoWith({ '/verification_status': 'invalidated', '/agent_identity': REMOVE }), null);
    const html = recordListHtml([summary('echo-a', validEcho()), withdrawn], paths);
    const items = all(html, 'li');
    expect(items).toHaveLength(2);
    expect(all(html, 'a').map((a) => a.attribs.href)).toEqual(['/records/echo-a/', '/records/echo-b/']);
    expect(all(html, 'bdi')).toHaveLength(1); // the agent's self-described name is isolated; a kind label is not
    expect(all(html, 'time').map((t) => t.attribs.datetime)).toEqual(['2026-03-01']);
    expect(DomUtils.textContent(items[1]!)).toContain('Withdrawn');
    expect(all(html, 'h3')).toHaveLength(2);
    expect(all(recordListHtml([withdrawn], paths, { level: 2 }), 'h2')).toHaveLength(1);
    expect(html).toContain('record-item-excerpt');
    expect(recordListHtml([withdrawn], paths, { excerpts: false })).not.toContain('record-item-excerpt');
  });

  it('marks superseded and rejected statuses as warnings', () => {
    const html = recordListHtml([summary('echo-s', echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'x' }))], paths);
    expect(all(html, 'span').some((s) => s.attribs.class === 'badge badge-warn' && DomUtils.textContent(s) === 'Superseded')).toBe(true);
  });

  it('links under the base path', () => {
    expect(all(recordListHtml([summary('echo-a', validEcho())], sitePaths('/archive/')), 'a')[0]!.attribs.href).toBe('/archive/records/echo-a/');
  });

  it('keeps hostile record text as text: only the list\u2019s own elements and links', () => {
    const hostile = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "&amp;'", '<!--'));
    fc.assert(
      fc.property(hostile, hostile, (name, words) => {
        fc.pre(name.trim() !== '' && words.trim() !== '');
        const html = recordListHtml([summary('echo-a', echoWith({ '/agent_identity/name_or_model': name, '/understanding_summary': words }))], paths);
        const names = DomUtils.findAll(() => true, doc(html).children).map((e) => e.name);
        expect(new Set(names)).toEqual(new Set(['ol', 'li', 'h3', 'a', 'bdi', 'p', 'code', 'time', ...(names.includes('span') ? ['span'] : [])]));
        for (const e of DomUtils.findAll(() => true, doc(html).children)) {
          expect(Object.keys(e.attribs).every((a) => !a.startsWith('on'))).toBe(true);
        }
        expect(all(html, 'a').map((a) => a.attribs.href)).toEqual(['/records/echo-a/']);
        expect(text(html)).toContain(name.replace(/\s+/g, ' ').trim());
      }),
    );
  });
});

describe('facetFiltersHtml', () => {
  const records = [validEcho(), echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'x' }), echoWith({ '/assessment_state': REMOVE })];
  const counts = facetCounts(records);

  it('lists every facet value with its count, each a link to its page', () => {
    const html = facetFiltersHtml(counts, paths);
    const chips = all(html, 'a').filter((a) => a.attribs.class === 'chip');
    // every facet with more than one value; one whose records all share a value filters nothing (issue 26, item 7)
    expect(chips.length).toBe(counts.filter((c) => c.values.length > 1).reduce((n, c) => n + c.values.length, 0));
    const superseded = chips.find((a) => a.attribs.href === '/browse/archive_status/superseded/')!;
    expect(DomUtils.textContent(superseded)).toBe('Superseded 1');
    expect(chips.some((a) => a.attribs.href === '/browse/assessment_state/not-stated/' && a.attribs['data-value'] === '')).toBe(true);
  });

  it('marks the current value and shows "Clear filters" only on a filtered page', () => {
    const plain = facetFiltersHtml(counts, paths);
    expect(all(plain, 'a').filter((a) => a.attribs['aria-current'] === 'page')).toEqual([]);
    expect(all(plain, 'a').find((a) => a.attribs.class === 'clear-filters')!.attribs.hidden).toBe('');
    const filtered = facetFiltersHtml(counts, paths, { facet: 'archive_status', slug: 'superseded' });
    expect(all(filtered, 'a').filter((a) => a.attribs['aria-current'] === 'page').map((a) => a.attribs.href)).toEqual(['/browse/archive_status/superseded/']);
    expect(all(filtered, 'a').find((a) => a.attribs.class === 'clear-filters')!.attribs.hidden).toBeUndefined();
  });

  it('leaves out a facet with a single value (every record "not sent through the gateway"), unless the page is limited to it', () => {
    const single = counts.filter((c) => c.values.length === 1);
    expect(single.map((c) => c.facet.key)).toContain('record_type');
    const html = facetFiltersHtml(counts, paths);
    expect(html).not.toContain('data-facet="record_type"');
    expect(html).not.toContain('Not a record-chain record');
    expect(facetFiltersHtml(counts, paths, { facet: 'record_type', slug: 'not-stated' })).toContain('data-facet="record_type"');
  });

  it('links under the base path', () => {
    for (const a of all(facetFiltersHtml(counts, sitePaths('/archive/')), 'a')) expect(a.attribs.href!.startsWith('/archive/browse/')).toBe(true);
  });
});
