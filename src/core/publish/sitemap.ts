/**
 * /sitemap.xml: the site's fixed pages (home, browse, policies, guides) and every record page, with absolute URLs from the site
 * configuration. A record's lastmod is its archive date (records without one have none); pages without a date of
 * their own have no lastmod, so the sitemap never carries the build time.
 *
 * A sitemap holds at most 50,000 URLs (sitemaps.org). Above that, /sitemap.xml is a sitemap index pointing to
 * /sitemap-<n>.xml files of at most `maxUrls` URLs each.
 */
import type { SiteConfig } from '../config.ts';
import { byArchivePath, recordPageUrl, type PublishRecord } from './records.ts';
import { escapeXml } from './text.ts';

export const SITEMAP_PATH = '/sitemap.xml';

/**
 * The site's fixed pages for people, listed before the record pages: home, browse, the policy pages, the agent and
 * contributor guides. (scripts/check-published.ts checks after a build that every URL of the sitemap exists.)
 */
export const SITE_PAGES: readonly string[] = [
  '/',
  '/browse/',
  '/guardians/',
  '/policies/',
  '/policies/claim-gate-entrypoint/',
  '/policies/propagation/',
  '/agents/',
  '/contributing/',
];
export const SITEMAP_MAX_URLS = 50_000;

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
}

export interface Sitemap {
  /** /sitemap.xml: the urlset, or the sitemap index when split. */
  index: string;
  /** /sitemap-<n>.xml (n from 1) when split, else empty. */
  parts: { path: string; text: string }[];
}

export function sitemapPartPath(n: number): string {
  return `/sitemap-${n}.xml`;
}

/** Every URL the sitemap lists: the fixed pages, then record pages in archive-path order. */
export function sitemapUrls(records: readonly PublishRecord[], config: SiteConfig, pages: readonly string[] = SITE_PAGES): SitemapUrl[] {
  const base = config.baseUrl;
  return [
    ...pages.map((page) => ({ loc: base + page })),
    ...byArchivePath(records).map((r) => ({ loc: base + recordPageUrl(r.id), ...(r.archiveDate ? { lastmod: r.archiveDate } : {}) })),
  ];
}

function urlset(urls: readonly SitemapUrl[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
  for (const { loc, lastmod } of urls) {
    lines.push(`  <url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`);
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}

export interface SitemapOptions {
  /** URLs per sitemap file; default 50,000. */
  maxUrls?: number;
  /** Fixed pages listed before the records; default SITE_PAGES. */
  pages?: readonly string[];
}

export function buildSitemap(records: readonly PublishRecord[], config: SiteConfig, { maxUrls = SITEMAP_MAX_URLS, pages }: SitemapOptions = {}): Sitemap {
  const urls = sitemapUrls(records, config, pages);
  if (urls.length <= maxUrls) return { index: urlset(urls), parts: [] };
  const parts: Sitemap['parts'] = [];
  for (let i = 0; i < urls.length; i += maxUrls) {
    parts.push({ path: sitemapPartPath(parts.length + 1), text: urlset(urls.slice(i, i + maxUrls)) });
  }
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
  for (const part of parts) lines.push(`  <sitemap><loc>${escapeXml(config.baseUrl + part.path)}</loc></sitemap>`);
  lines.push('</sitemapindex>', '');
  return { index: lines.join('\n'), parts };
}
