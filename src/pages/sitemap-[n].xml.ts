/** /sitemap-<n>.xml: the parts of a sitemap split above 50,000 URLs (none otherwise). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { siteConfig } from '../core/config.ts';
import { archiveRecords, sitemapPages } from '../site/model/records.ts';
import { buildSitemap } from '../core/publish/sitemap.ts';

export const getStaticPaths = (async () =>
  buildSitemap(await archiveRecords(), siteConfig(), { pages: await sitemapPages() }).parts.map((part, i) => ({
    params: { n: String(i + 1) },
    props: { text: part.text },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ text: string }> = ({ props }) =>
  new Response(props.text, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
