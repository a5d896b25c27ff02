/**
 * /api/index.json: the public index (src/core/publish/public-index.ts), or its manifest when the index is sharded
 * (the shards are /api/index/<n>.json). A function of the records alone.
 */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { buildPublicIndex, indexShardBytes } from '../../core/publish/public-index.ts';
import { publishRecordsFrom } from '../../core/publish/records.ts';

export const GET: APIRoute = async () => {
  const { index } = buildPublicIndex(publishRecordsFrom(await getCollection('records')), { maxBytes: indexShardBytes() });
  return new Response(index.text, { headers: { 'Content-Type': 'application/json' } });
};
