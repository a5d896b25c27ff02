/**
 * /api/index.json: the public index (src/core/publish/public-index.ts), or its manifest when the index is sharded
 * (the shards are /api/index/<n>.json). A function of the records alone.
 */
import type { APIRoute } from 'astro';
import { publicIndex } from '../../site/model/records.ts';

export const GET: APIRoute = async () => {
  const { index } = await publicIndex();
  return new Response(index.text, { headers: { 'Content-Type': 'application/json' } });
};
