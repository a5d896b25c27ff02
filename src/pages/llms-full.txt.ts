/**
 * /llms-full.txt: /llms.txt with every agent document inline (src/core/publish/mcp-discovery.ts); its llms.txt part
 * is the same as /llms.txt's (the signed checkpoint linked only when this build publishes one).
 */
import type { APIRoute } from 'astro';
import { siteConfig } from '../core/config.ts';
import { llmsTxt } from '../core/publish/discovery.ts';
import { llmsFullTxt } from '../core/publish/mcp-discovery.ts';
import { handedOverArchive, readSiteArchive, siteLogOf } from '../site/build/2-read-archive.ts';

export const GET: APIRoute = async () => {
  const records = handedOverArchive() ?? (await readSiteArchive());
  const checkpoint = (siteLogOf(records)?.signers ?? []).length > 0;
  const config = siteConfig();
  return new Response(llmsFullTxt(config, llmsTxt(config, { checkpoint })), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
