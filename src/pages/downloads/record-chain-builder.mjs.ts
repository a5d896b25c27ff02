/**
 * /downloads/record-chain-builder.mjs: the bundled record-chain builder (spec 1.4), the exact bytes that
 * the build bundled (src/builder/bundle.ts); /api/record-chain-builder.json names their size and SHA-256.
 */
import type { APIRoute } from 'astro';
import { root } from 'astro:config/server';
import { builderBundleBytes } from '../../builder/release.ts';

export const GET: APIRoute = async () =>
  new Response(await builderBundleBytes(root), { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
