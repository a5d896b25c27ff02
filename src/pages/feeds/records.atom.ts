/** /feeds/records.atom: the newest records by archive date (src/core/publish/feeds.ts). */
import type { APIRoute } from 'astro';
import { siteConfig } from '../../core/config.ts';
import { atomFeed } from '../../core/publish/feeds.ts';
import { archiveRecords } from '../../site/model/records.ts';

export const GET: APIRoute = async () =>
  new Response(atomFeed(await archiveRecords(), siteConfig()), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
