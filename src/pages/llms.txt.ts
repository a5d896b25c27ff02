/**
 * /llms.txt: what the archive is and where an agent finds everything (src/core/publish/discovery.ts). The signed
 * checkpoint is linked only when this build publishes one (with a log signing key: src/site/build/6-transparency-log.ts).
 */
import type { APIRoute } from 'astro';
import { siteConfig } from '../core/config.ts';
import { llmsTxt } from '../core/publish/discovery.ts';
import { handedOverArchive, readSiteArchive, siteLogOf } from '../site/build/2-read-archive.ts';

export const GET: APIRoute = async () => {
  const records = handedOverArchive() ?? (await readSiteArchive());
  const checkpoint = (siteLogOf(records)?.signers ?? []).length > 0;
  return new Response(llmsTxt(siteConfig(), { checkpoint }), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
