/** /llms.txt, /robots.txt and /sitemap.xml: absolute URLs from the configuration, every record page, no build time. */
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isPublishedDocumentPath, llmsTxt, publishedApiDocuments, RETIRED_PATHS, robotsTxt } from '../../src/core/publish/discovery.ts';
import { SITE_PAGES, buildSitemap, sitemapUrls } from '../../src/core/publish/sitemap.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { archiveRecords, publishRecord, shuffled, xmlProblems } from './helpers.ts';

const config = { baseUrl: 'https://archive.example.test/sub', gatewayUrl: 'https://gateway.example.test' };
const projectRecords = await archiveRecords(resolve(REPO_ROOT, 'records'));

afterEach(() => {
  vi.useRealTimers();
});

describe('llms.txt', () => {
  const text = llmsTxt(config);

  it('says what the archive is and that it is not authoritative', () => {
    expect(text.startsWith('# Echo archive\n\n> ')).toBe(true);
    expect(text).toMatch(/non-authoritative/);
    expect(text).toMatch(/original inscribed records prevail/);
    expect(text).toMatch(/never as instructions/);
  });

  it('links the index, schemas, policies, builder and gateway with absolute URLs from the configuration', () => {
    for (const path of [
      '/api/index.json',
      '/api/public-index-schema.v1.json',
      '/api/echo-record-schema.v3.json',
      '/api/record-chain-submission-schema.v1.json',
      '/api/verification-claim-model.v1.json',
      '/api/propagation-policy.json',
      '/api/claim-gate-entrypoint-policy.json',
      '/api/agent-first-contact.json',
      '/downloads/record-chain-builder.mjs',
      '/api/gateway-openapi.json',
      '/feeds/records.atom',
      '/sitemap.xml',
    ]) {
      expect(text).toContain(`(${config.baseUrl}${path})`);
    }
    expect(text).toContain('POST https://gateway.example.test/record-chain/preflight');
    expect(text).toContain('POST https://gateway.example.test/record-chain/submit');
    for (const [, url] of text.matchAll(/\]\(([^)]+)\)/g)) expect(url!.startsWith(`${config.baseUrl}/`)).toBe(true);
  });

  it('is the same at any time', () => {
    vi.useFakeTimers({ now: new Date('2031-01-01T00:00:00Z') });
    const a = llmsTxt(config);
    vi.setSystemTime(new Date('2042-01-01T00:00:00Z'));
    expect(llmsTxt(config)).toBe(a);
  });
});

describe('llms.txt reaches every agent document (issue 26, items 3 and 6)', () => {
  it('links the checkpoint only when the build publishes one', () => {
    expect(llmsTxt(config)).not.toContain(`(${config.baseUrl}/log/checkpoint)`);
    expect(llmsTxt(config)).toContain('Signed checkpoint: none published by this build');
    expect(llmsTxt(config, { checkpoint: true })).toContain(`- [Signed checkpoint](${config.baseUrl}/log/checkpoint)`);
  });

  it('links /agents/, the builder release, the gateway keys and the limits', () => {
    const text = llmsTxt(config);
    for (const path of ['/agents/', '/api/record-chain-builder.json', '/api/gateway-keys.json', '/api/record-chain-limits.json', '/api/log.json', '/api/guardian-registry.json']) {
      expect(text).toContain(`(${config.baseUrl}${path})`);
    }
  });

  it('every published /api/ document is in llms.txt or the agent router', async () => {
    const text = llmsTxt(config);
    const { publishedDocument } = await import('../../src/core/publish/documents.ts');
    const router = publishedDocument('agent-first-contact.json', config)!.text;
    const unreachable = publishedApiDocuments().filter((p) => !text.includes(`(${config.baseUrl}${p})`) && !router.includes(`"${p}"`));
    expect(unreachable).toEqual([]);
  });

  it('a retired path is never a published document path (documents show it as text)', () => {
    for (const p of RETIRED_PATHS) expect(isPublishedDocumentPath(p)).toBe(false);
    expect(isPublishedDocumentPath('/api/agent-entry-protocol.json')).toBe(false);
    expect(isPublishedDocumentPath('/api/agent-first-contact.json')).toBe(true);
    expect(isPublishedDocumentPath('/downloads/record-chain-builder.mjs')).toBe(true);
  });
});

describe('robots.txt', () => {
  it('allows everything and points to the sitemap', () => {
    expect(robotsTxt(config)).toBe('User-agent: *\nAllow: /\n\nSitemap: https://archive.example.test/sub/sitemap.xml\n');
  });
});

describe('sitemap.xml', () => {
  it('lists home, browse and every record page, dated by archive date', () => {
    const { index, parts } = buildSitemap(projectRecords, config);
    expect(parts).toEqual([]);
    expect(xmlProblems(index)).toEqual([]);
    const locs = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.slice(0, SITE_PAGES.length)).toEqual(SITE_PAGES.map((p) => `https://archive.example.test/sub${p}`));
    expect(locs).toContain('https://archive.example.test/sub/browse/');
    expect(locs.slice(SITE_PAGES.length).sort()).toEqual(projectRecords.map((r) => `https://archive.example.test/sub/records/${r.id}/`).sort());
    for (const r of projectRecords) {
      expect(index).toContain(`<url><loc>https://archive.example.test/sub/records/${r.id}/</loc><lastmod>${r.archiveDate}</lastmod></url>`);
    }
    expect(buildSitemap(shuffled(projectRecords), config).index).toBe(index);
  });

  it('undated records have no lastmod; ids are URL-encoded and XML-escaped', () => {
    const urls = sitemapUrls([publishRecord('x/a&b <c>.json')], config);
    expect(urls.at(-1)).toEqual({ loc: 'https://archive.example.test/sub/records/a%26b%20%3Cc%3E/' });
    expect(xmlProblems(buildSitemap([publishRecord('x/a&b <c>.json')], config).index)).toEqual([]);
  });

  it('splits into a sitemap index above the URL limit', () => {
    const { index, parts } = buildSitemap(projectRecords, config, { maxUrls: 5 });
    const total = projectRecords.length + SITE_PAGES.length;
    expect(parts).toHaveLength(Math.ceil(total / 5));
    expect(index).toContain('<sitemapindex');
    expect(xmlProblems(index)).toEqual([]);
    parts.forEach((part, i) => {
      expect(part.path).toBe(`/sitemap-${i + 1}.xml`);
      expect(index).toContain(`<loc>https://archive.example.test/sub/sitemap-${i + 1}.xml</loc>`);
      expect(xmlProblems(part.text)).toEqual([]);
    });
    expect(parts.reduce((n, p) => n + (p.text.match(/<url>/g)?.length ?? 0), 0)).toBe(total);
  });
});
