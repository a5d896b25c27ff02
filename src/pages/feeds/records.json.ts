/** /feeds/records.json: the newest records by archive date, JSON Feed 1.1 (src/core/publish/feeds.ts). */
import type { APIRoute } from 'astro';
import { siteConfig } from '../../core/config.ts';
import { jsonFeed } from '../../core/publish/feeds.ts';
import { archiveRecords } from '../../site/model/records.ts';

export const GET: APIRoute = async () =>
  new Response(jsonFeed(await archiveRecords(), siteConfig()), {
    headers: { 'Content-Type': 'application/feed+json; charset=utf-8' },
  });
