/**
 * The public index's shards (/api/index/<n>.json, src/core/publish/public-index.ts), kept between builds: at 100,000
 * records making the index's 60 MB of entries was 0.6 s of the main thread and a quarter of the garbage it collected
 * in a build after an append, which changes the last shard alone. The core takes a kept shard as it is while the
 * inputs of its records are unchanged (its key); this module keeps them.
 *
 * A folder of the build cache (`public-index/`): `shards.json`, the last build's shards in order (each one's key and
 * record count) with the fingerprint of the code that made them (another code may make other entries), and the
 * shards' texts as the page cache's content-addressed entries (page-cache.ts, kind "json", under `entries/`), each
 * checked by its hash before use, or known unchanged by its change time since the last build checked it (the stamp
 * each build leaves there). After a build the folder holds that build's shards only. A kept shard is linked into the
 * site rather than written (src/site/build/3-archive-pages.ts).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../../../core/crypto/sha256.ts';
import type { KeptShard, KeptShards } from '../../../core/publish/public-index.ts';
import { replaceCacheFile } from '../../../core/util/replace-file.ts';
import { entryOf, PageCache, pageCacheForBuild, prunePageCache } from './page-cache.ts';

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
  // Its entries known by their change time as the page cache's are (page-cache.ts): each build prunes it and stamps it.
  const { settings, started } = pageCacheForBuild(entries, code);
  const cache = new PageCache(settings);
  const listed = readList(join(dir, LIST), code);
  // The entries the core took (checked by their hash as it did), which this build keeps without looking again.
  const taken = new Map<string, string>();
  const shards: KeptShard[] = listed.map(({ key, records }) => ({
    key,
    records,
    read: () => {
      // Located: known unchanged by its change time, or read and checked by its hash now. Its text is read only when
      // asked for: the build links the entry into the site (src/site/build/3-archive-pages.ts), 60 MB it read,
      // decoded and compared with the site's copy at 100,000 records.
      const hit = cache.locate(key, 'json');
      if (hit === undefined) return undefined;
      taken.set(key, hit.name);
      const file = join(entries, hit.name);
      // Its hash is the one its entry's name gives, which its bytes were checked against.
      const sha256 = entryOf(hit.name.slice(3))!.sha256;
      let bytes = hit.bytes;
      return {
        sha256,
        source: { file, ...(hit.identity === undefined ? {} : { identity: hit.identity }) },
        get text() {
          bytes ??= readFileSync(file);
          if (hit.bytes === undefined && sha256Hex(bytes) !== sha256) throw new Error(`the public index's kept shard ${file} changed during the build; build again`);
          return bytes.toString('utf8');
        },
      };
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
      if (replaceCacheFile(join(dir, LIST), JSON.stringify(list))) prunePageCache(entries, keep, started);
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
