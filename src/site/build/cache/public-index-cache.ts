/**
 * The public index's shards (/api/index/<n>.json, src/core/publish/public-index.ts), kept between builds: at 100,000
 * records making the index's 60 MB of entries was 0.6 s of the main thread and a quarter of the garbage it collected
 * in a build after an append, which changes the last shard alone. The core takes a kept shard as it is while the
 * inputs of its records are unchanged (its key); this module keeps them.
 *
 * A folder of the build cache (`public-index/`): `shards.json`, the last build's shards in order (each one's key and
 * record count) with the fingerprint of the code that made them (another code may make other entries), and the
 * shards' texts as the page cache's content-addressed entries (page-cache.ts, kind "json", under `entries/`), each
 * checked by its hash before use. After a build the folder holds that build's shards only.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeptShard, KeptShards } from '../../../core/publish/public-index.ts';
import { replaceCacheFile } from '../../../core/util/replace-file.ts';
import { entryOf, PageCache, prunePageCache } from './page-cache.ts';

const LIST = 'shards.json';
const FORMAT = 'echo-archive public index shards 1';

interface ShardList {
  format: string;
  code: string;
  shards: { key: string; records: number }[];
}

/** The shards kept at `dir` by a build of the code `code` (none by another code, or a damaged list), and their keeper. */
export function openPublicIndexCache(dir: string, code: string): KeptShards & { taken(): number } {
  const entries = join(dir, 'entries');
  const cache = new PageCache({ dir: entries, code, build: randomUUID() });
  const listed = readList(join(dir, LIST), code);
  // The entries the core took (checked by their hash as it did), which this build keeps without looking again.
  const taken = new Map<string, string>();
  const shards: KeptShard[] = listed.map(({ key, records }) => ({
    key,
    records,
    read: () => {
      const hit = cache.find(key, 'json');
      if (hit === undefined) return undefined;
      taken.set(key, hit.name);
      // Its hash is the one its entry's name gives, which its bytes were checked against.
      return { text: hit.bytes.toString('utf8'), sha256: entryOf(hit.name.slice(3))!.sha256 };
    },
  }));
  return {
    shards,
    /** How many kept shards the core took. */
    taken: () => taken.size,
    keep(made) {
      try {
        mkdirSync(dir, { recursive: true });
      } catch {
        return; // a cache that cannot be written costs the next build time only
      }
      const keep = new Set<string>();
      for (const { key, file } of made) {
        const name = taken.get(key) ?? cache.storeBytes(key, file.text, 'json');
        if (name === undefined) return;
        keep.add(name);
      }
      const list: ShardList = { format: FORMAT, code, shards: made.map(({ key, records }) => ({ key, records })) };
      if (replaceCacheFile(join(dir, LIST), JSON.stringify(list))) prunePageCache(entries, keep);
    },
  };
}

/** The list at `file` if a build of `code` wrote it and it is whole; else none. */
function readList(file: string, code: string): ShardList['shards'] {
  try {
    const list = JSON.parse(readFileSync(file, 'utf8')) as Partial<ShardList>;
    if (list.format !== FORMAT || list.code !== code || !Array.isArray(list.shards)) return [];
    return list.shards.every((s) => typeof s?.key === 'string' && /^[0-9a-f]{64}$/.test(s.key) && Number.isSafeInteger(s.records) && s.records > 0) ? list.shards : [];
  } catch {
    return [];
  }
}
