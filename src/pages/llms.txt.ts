/** /llms.txt: what the archive is and where an agent finds everything (src/core/publish/discovery.ts). */
import type { APIRoute } from 'astro';
import { siteConfig } from '../core/config.ts';
import { llmsTxt } from '../core/publish/discovery.ts';

export const GET: APIRoute = () => new Response(llmsTxt(siteConfig()), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
