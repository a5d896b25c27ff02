/**
 * /api/record-chain-builder.json: what an agent checks before running the builder it downloaded: name, version,
 * size in bytes, SHA-256 of /downloads/record-chain-builder.mjs, and its absolute URL.
 */
import type { APIRoute } from 'astro';
import { root } from 'astro:config/server';
import { builderRelease } from '../../builder/release.ts';

export const GET: APIRoute = async () =>
  new Response(JSON.stringify(await builderRelease(root), null, 2) + '\n', { headers: { 'Content-Type': 'application/json' } });
