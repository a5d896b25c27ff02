/**
 * The listing pages as jobs (src/site/model/listing-jobs.ts) and their documents (src/site/render/listing-document.ts):
 * one job per page of every listing, each record on exactly one page of each listing it belongs to; a page's job (and
 * so its cache key and bytes) unchanged by an append unless the page is one the append changes; the document in the
 * site's frame, linking pages and the browse script under the base.
 */
import { describe, expect, it } from 'vitest';
import { DomUtils, parseDocument } from 'htmlparser2';
import { summarizeRecord } from '../../src/site/model/archive-model.ts';
import { FACETS, facetCounts } from '../../src/site/model/facets.ts';
import { listingJobs, listingPath, type ListingJob } from '../../src/site/model/listing-jobs.ts';
import { frameOf } from '../../src/site/render/page-frame.ts';
import { listingDocument } from '../../src/site/render/listing-document.ts';
import { summarize } from '../../src/site/model/archive-model.ts';
import { echoWith, validEcho } from '../helpers/records.ts';

/** A model of `n` records in order of arrival; every third one superseded. */
function modelOf(n: number) {
  const records = Array.from({ length: n }, (_, i) => (i % 3 === 2 ? echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'x' }) : validEcho()));
  const arrivals = records.map((record, i) => {
    const id = `echo-2026-03-01-${String(i + 1).padStart(6, '0')}`;
    return summarizeRecord({ id, path: `2026/${id}.json`, archiveDate: '2026-03-01', sha256: '0'.repeat(64), record });
  });
  return { arrivals, summary: summarize(records), facetCounts: facetCounts(records) };
}

const idsOf = (jobs: ListingJob[]) => jobs.flatMap((j) => j.view.page.items.map((s) => s.id));

describe('listingJobs', () => {
  it('is every page of every listing, each at its own path, each record once per listing', () => {
    const model = modelOf(23);
    const jobs = listingJobs(model, 5);
    expect(new Set(jobs.map((j) => j.path)).size).toBe(jobs.length);
    const all = jobs.filter((j) => j.listing === undefined);
    expect(all.map((j) => j.path)).toEqual(['browse/', 'browse/3/', 'browse/2/', 'browse/1/']);
    expect(idsOf(all).sort()).toEqual(model.arrivals.map((s) => s.id).sort());
    const superseded = jobs.filter((j) => j.listing?.facet === 'archive_status' && j.listing.slug === 'superseded');
    expect(superseded.map((j) => j.path)).toEqual(['browse/archive_status/superseded/']);
    expect(idsOf(superseded)).toHaveLength(7);
    expect(superseded[0]!.title).toMatch(/superseded/i);
    // every facet value's listing holds every record once, across its values
    for (const facet of new Set(jobs.flatMap((j) => (j.listing ? [j.listing.facet] : [])))) {
      expect(idsOf(jobs.filter((j) => j.listing?.facet === facet)).sort(), facet).toEqual(model.arrivals.map((s) => s.id).sort());
    }
  });

  it('leaves the job of every page an append does not change as it was (its cache entry is reused)', () => {
    const before = listingJobs(modelOf(400), 5);
    const after = listingJobs(modelOf(401), 5);
    const was = new Map(before.map((j) => [j.path, JSON.stringify(j)]));
    const changed = after.filter((j) => was.get(j.path) !== JSON.stringify(j)).map((j) => j.path);
    // Per listing the record joins (all records, one value of each facet): its front page and at most four numbered
    // pages whose navigation names the newest end (listing-pages.test.ts).
    expect(changed).toContain('browse/');
    expect(changed.length).toBeLessThanOrEqual((1 + FACETS.length) * 5);
    expect(changed.filter((p) => /\/\d+\/$/.test(p)).every((p) => Number(/(\d+)\/$/.exec(p)![1]) >= 70)).toBe(true);
    expect(after.length - changed.length).toBeGreaterThan(before.length * 0.9);
  });
});

describe('listingDocument', () => {
  it('is the listing page in the site frame, with links and the browse script under the base', () => {
    const frame = frameOf({ base: '/archive/', site: 'https://echoes.example.org', stylesheet: '/archive/styles/site.css?v=1' });
    const job = listingJobs(modelOf(23), 5).find((j) => j.path === 'browse/2/')!;
    const html = listingDocument(job, frame, 'scripts/browse-filter.abc.js');
    const doc = parseDocument(html);
    const scripts = DomUtils.getElementsByTagName('script', doc.children);
    expect(scripts.map((s) => s.attribs)).toEqual([{ type: 'module', src: '/archive/scripts/browse-filter.abc.js' }]);
    expect(DomUtils.textContent(DomUtils.getElementsByTagName('title', doc.children)[0]!)).toMatch(/^All records, page 2/);
    const canonical = DomUtils.findAll((e) => e.name === 'link' && e.attribs.rel === 'canonical', doc.children)[0]!;
    expect(canonical.attribs.href).toBe('https://echoes.example.org/archive/browse/2/');
    const hrefs = DomUtils.getElementsByTagName('a', doc.children).map((a) => a.attribs.href ?? '');
    expect(hrefs).toContain('/archive/browse/3/');
    expect(hrefs).toContain('/archive/browse/1/');
    expect(hrefs.filter((h) => h.startsWith('/browse'))).toEqual([]);
  });

  it('names its own path for every page', () => {
    expect(listingPath(undefined, 'front')).toBe('browse/');
    expect(listingPath({ facet: 'record_kind', slug: 'echo' }, 4)).toBe('browse/record_kind/echo/4/');
  });
});
