/**
 * /api/index/<n>.json: the shards of a sharded public index (none when the index is one document).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { publicIndex } from '../../../site/model/records.ts';

export const getStaticPaths = (async () => {
  const { shards } = await publicIndex();
  return shards.map((shard, i) => ({ params: { shard: String(i + 1) }, props: { text: shard.text } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ text: string }> = ({ props }) =>
  new Response(props.text, { headers: { 'Content-Type': 'application/json' } });
