/**
 * /api/index.json: the public index (src/core/publish/public-index.ts), or its manifest when the index is sharded
 * (the shards are /api/index/<n>.json). A function of the records alone.
 */
import type { APIRoute } from 'astro';
import { buildPublicIndex, indexShardBytes } from '../../core/publish/public-index.ts';
import { archiveRecords } from '../../site/model/records.ts';

export const GET: APIRoute = async () => {
  const { index } = buildPublicIndex(await archiveRecords(), { maxBytes: indexShardBytes() });
  return new Response(index.text, { headers: { 'Content-Type': 'application/json' } });
};
