/**
 * The pages made from the whole archive (src/site/render/archive-pages.ts), which the build writes beside Astro's and
 * `astro dev` serves: one of each, every path one `astro dev` recognises as such, every document what its maker says.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { siteConfig } from '../../src/core/config.ts';
import { buildPublicIndex } from '../../src/core/publish/public-index.ts';
import { readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { archiveModelOf } from '../../src/site/model/site-model.ts';
import { archivePageAt, archivePages, archivePagesInSlices, isArchivePagePath } from '../../src/site/render/archive-pages.ts';
import { frameOf } from '../../src/site/render/page-frame.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const quiet = { info: () => {}, warn: () => {} };
const frame = frameOf({ base: '/archive/', site: 'https://example.org/archive/', stylesheet: '/archive/styles/site.css?v=1' });
const records = await readSiteArchive(resolve(REPO_ROOT, 'records'), quiet);

describe('archivePages', () => {
  it("lists each page once, at a path astro dev takes for one of them, and makes each in its type", () => {
    const pages = archivePages({ records, frame, config: siteConfig({}), shardBytes: 64 * 1024 });
    const paths = pages.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const page of pages) {
      expect(isArchivePagePath(page.path), page.path).toBe(true);
      const body = page.make();
      if (page.type.startsWith('text/html')) expect(body.startsWith('<!DOCTYPE html>'), page.path).toBe(true);
      if (page.type.startsWith('application/json') || page.type.startsWith('application/feed+json')) expect(() => JSON.parse(body), page.path).not.toThrow();
    }
    for (const counts of archiveModelOf(records).facetCounts) expect(paths).toContain(`browse/${counts.facet.key}/index.html`);
    for (const path of ['index.html', 'guardians/index.html', 'api/index.json', 'api/log.json', 'api/guardian-registry.json', 'feeds/records.atom', 'feeds/records.json', 'sitemap.xml', 'llms.txt', 'llms-full.txt', 'browse/records.json']) {
      expect(paths).toContain(path);
    }
    // pages under the base path link under it
    expect(pages.find((p) => p.path === 'index.html')!.make()).toContain('href="/archive/browse/"');
  });

  it("lists every shard of the public index, as many as its size makes", () => {
    const shardBytes = 4 * 1024;
    const expected = buildPublicIndex(records, { maxBytes: shardBytes }).shards;
    expect(expected.length).toBeGreaterThan(1);
    const pages = archivePages({ records, frame, config: siteConfig({}), shardBytes });
    const shards = pages.filter((p) => p.path.startsWith('api/index/'));
    expect(shards.map((p) => p.path)).toEqual(expected.map((_, i) => `api/index/${i + 1}.json`));
    expect(shards.map((p) => p.make())).toEqual(expected.map((s) => s.text));
  });

  it('lists the same pages, the same bytes, when the public index is made in slices (archivePagesInSlices)', async () => {
    const input = { records, frame, config: siteConfig({}), shardBytes: 4 * 1024 };
    const sliced = await archivePagesInSlices(input);
    const whole = archivePages(input);
    expect(sliced.map((p) => p.path)).toEqual(whole.map((p) => p.path));
    expect(sliced.map((p) => p.make())).toEqual(whole.map((p) => p.make()));
  });

  it('gives astro dev the page at a path, the same as the build writes there, and nothing where the build writes none', () => {
    const input = { records, frame, config: siteConfig({}), shardBytes: 4 * 1024 };
    const pages = archivePages(input);
    expect(pages.filter((p) => /^(api\/index\/|sitemap-)/.test(p.path)).length).toBeGreaterThan(2);
    for (const page of pages) {
      const found = archivePageAt(input, page.path);
      expect(found?.type, page.path).toBe(page.type);
      expect(found?.make(), page.path).toBe(page.make());
    }
    const shards = pages.filter((p) => p.path.startsWith('api/index/')).length;
    const parts = pages.filter((p) => p.path.startsWith('sitemap-')).length;
    for (const path of ['api/index/0.json', `api/index/${shards + 1}.json`, 'api/index/01.json', 'sitemap-0.xml', `sitemap-${parts + 1}.xml`, 'sitemap-01.xml', 'browse/no-such-facet/index.html', 'guardians/no-such-guardian/index.html']) {
      expect(archivePageAt(input, path), path).toBeUndefined();
    }
  });
});
