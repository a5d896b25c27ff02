/** /llms-full.txt: /llms.txt with every agent document inline (src/core/publish/mcp-discovery.ts). */
import type { APIRoute } from 'astro';
import { siteConfig } from '../core/config.ts';
import { llmsTxt } from '../core/publish/discovery.ts';
import { llmsFullTxt } from '../core/publish/mcp-discovery.ts';

export const GET: APIRoute = () => {
  const config = siteConfig();
  return new Response(llmsFullTxt(config, llmsTxt(config)), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
