/** /api/guardian-registry.json: the guardian registry the build derives (src/core/publish/archive-views.ts, DECISIONS 25). */
import type { APIRoute } from 'astro';
import { guardianRegistryText } from '../../core/publish/archive-views.ts';
import { archiveViews } from '../../site/model/records.ts';

export const GET: APIRoute = async () =>
  new Response(guardianRegistryText((await archiveViews()).registry), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
