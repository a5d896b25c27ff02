/**
 * The documents that hold a public index's entries (/api/public-index-schema.v1.json): the index itself when it is
 * one document, or each shard its manifest lists, in order, each shard's bytes checked against the manifest's
 * sha256. One reading for everything the builder bundle looks up in an index — readback, the guardian and
 * classification commands' --site lookups (index-lookup.ts) and the MCP tools (src/mcp/site-client.ts); each caller
 * fetches in its own way and stops when it has what it needs.
 */
import { sha256Hex } from '../core/crypto/sha256.ts';
import { jsonOf, NetworkError, type FetchedBody } from './net.ts';

export interface IndexDocuments {
  /** The index as fetched: the whole index, or the manifest of a sharded one. */
  top: unknown;
  sharded: boolean;
  /** The documents holding the entries: `top` itself, or each shard (fetched on demand, its hash checked). */
  documents(): AsyncGenerator<{ doc: unknown; body: FetchedBody }>;
}

/** `index` is the fetched /api/index.json; `fetchShard` fetches a shard by the url its manifest gives. */
export function indexDocuments(index: FetchedBody, fetchShard: (url: string) => Promise<FetchedBody>): IndexDocuments {
  const top = jsonOf(index);
  const shards = (top as { shards?: unknown } | null)?.shards;
  if (!Array.isArray(shards)) {
    return {
      top,
      sharded: false,
      async *documents() {
        yield { doc: top, body: index };
      },
    };
  }
  return {
    top,
    sharded: true,
    async *documents() {
      for (const shard of shards as Array<{ url?: unknown; sha256?: unknown }>) {
        if (typeof shard?.url !== 'string') throw new NetworkError(`${index.url}: a shard has no url`);
        const part = await fetchShard(shard.url);
        if (typeof shard.sha256 === 'string' && sha256Hex(part.bytes) !== shard.sha256) {
          throw new NetworkError(`the shard ${part.url} does not hash to the sha256 the manifest lists (the site may be mid-publication: try again)`);
        }
        yield { doc: jsonOf(part), body: part };
      }
    },
  };
}
