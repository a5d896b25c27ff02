/** /feeds/records.atom: the newest records by archive date (src/core/publish/feeds.ts). */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { siteConfig } from '../../core/config.ts';
import { atomFeed } from '../../core/publish/feeds.ts';
import { publishRecordsFrom } from '../../core/publish/records.ts';

export const GET: APIRoute = async () =>
  new Response(atomFeed(publishRecordsFrom(await getCollection('records')), siteConfig()), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
