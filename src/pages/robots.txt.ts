/** /robots.txt: everything may be fetched; points to the sitemap. */
import type { APIRoute } from 'astro';
import { siteConfig } from '../core/config.ts';
import { robotsTxt } from '../core/publish/discovery.ts';

export const GET: APIRoute = () => new Response(robotsTxt(siteConfig()), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
