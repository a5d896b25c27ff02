/**
 * /api/index/<n>.json: the shards of a sharded public index (none when the index is one document).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { buildPublicIndex, indexShardBytes } from '../../../core/publish/public-index.ts';
import { archiveRecords } from '../../../site/model/records.ts';

export const getStaticPaths = (async () => {
  const { shards } = buildPublicIndex(await archiveRecords(), { maxBytes: indexShardBytes() });
  return shards.map((shard, i) => ({ params: { shard: String(i + 1) }, props: { text: shard.text } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ text: string }> = ({ props }) =>
  new Response(props.text, { headers: { 'Content-Type': 'application/json' } });
