/** /sitemap.xml: home, browse and every record page; a sitemap index above 50,000 URLs (src/core/publish/sitemap.ts). */
import type { APIRoute } from 'astro';
import { siteConfig } from '../core/config.ts';
import { archiveRecords, sitemapPages } from '../site/model/records.ts';
import { buildSitemap } from '../core/publish/sitemap.ts';

export const GET: APIRoute = async () =>
  new Response(buildSitemap(await archiveRecords(), siteConfig(), { pages: await sitemapPages() }).index, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
