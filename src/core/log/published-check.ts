/**
 * A built site's log, checked against itself and the public index (scripts/check-published.ts, after a build): the
 * entry bundles are well-formed leaf entries in order; the hash tiles are exactly those of the tree of those
 * entries; the checkpoint, when there is one, verifies with a key /api/log.json lists and names that tree's size and
 * root; and every index entry's leaf_index is the latest leaf of its record, with the sha256 the index gives.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { leafEntry, parseLeafEntry, type LogLeaf } from './archive-log.ts';
import { openCheckpoint } from './checkpoint.ts';
import { hashesEqual, MerkleLevels } from './merkle.ts';
import { parseVerifierKey } from './note.ts';
import { decodeEntryBundle, hashTiles, TILE_WIDTH, tilePath } from './tiles.ts';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export interface IndexLeafRef {
  id: string;
  sha256: string;
  leaf_index?: number | null;
}

/** Problems found (empty: the log is consistent); `logDir` is <dist>/log, `logDocument` the parsed /api/log.json. */
export function checkPublishedLog(logDir: string, logDocument: { verifier_keys?: string[] } | undefined, index: readonly IndexLeafRef[]): string[] {
  const problems: string[] = [];
  const bundles = filesUnder(join(logDir, 'tile', 'entries')).map((p) => relative(logDir, p).split(sep).join('/'));
  // Entry bundles in order: bundle N holds leaves 256·N…; only the last may be partial.
  const leaves: LogLeaf[] = [];
  const entries: Uint8Array[] = [];
  for (let n = 0; ; n++) {
    const full = tilePath('entries', n);
    const partial = bundles.find((b) => b.startsWith(`${full}.p/`));
    const path = bundles.includes(full) ? full : partial;
    if (path === undefined) break;
    const width = path === full ? TILE_WIDTH : Number(path.slice(path.lastIndexOf('/') + 1));
    let decoded: Uint8Array[];
    try {
      decoded = decodeEntryBundle(readFileSync(join(logDir, path)), width);
    } catch (err) {
      problems.push(`log/${path}: ${(err as Error).message}`);
      return problems;
    }
    for (const entry of decoded) {
      const leaf = parseLeafEntry(Buffer.from(entry).toString('utf8'));
      if (!leaf || leaf.index !== leaves.length) problems.push(`log/${path}: leaf ${leaves.length} is not the canonical entry of leaf ${leaves.length}`);
      leaves.push(leaf ?? { id: '', index: -1, sha256: '' });
      entries.push(entry);
    }
    if (width < TILE_WIDTH) break;
  }
  const tree = new MerkleLevels();
  for (const e of entries) tree.appendEntry(e);
  const expected = new Map(hashTiles(tree).map((t) => [t.path, t.bytes]));
  const present = filesUnder(join(logDir, 'tile')).map((p) => relative(logDir, p).split(sep).join('/')).filter((p) => !p.startsWith('tile/entries/'));
  for (const [path, bytes] of expected) {
    if (!present.includes(path)) problems.push(`log/${path} is missing`);
    else if (!Buffer.from(readFileSync(join(logDir, path))).equals(Buffer.from(bytes))) problems.push(`log/${path} is not the tile of the published entries`);
  }
  for (const path of present) if (!expected.has(path)) problems.push(`log/${path} is not a tile of a tree of ${tree.size} leaves`);

  const checkpointPath = join(logDir, 'checkpoint');
  if (existsSync(checkpointPath)) {
    try {
      const keys = (logDocument?.verifier_keys ?? []).map(parseVerifierKey);
      const cp = openCheckpoint(readFileSync(checkpointPath, 'utf8'), keys);
      if (cp.size !== tree.size || !hashesEqual(cp.root, tree.root())) problems.push(`log/checkpoint names tree size ${cp.size}, but the published entries make a tree of ${tree.size} with another root`);
    } catch (err) {
      problems.push(`log/checkpoint does not verify with the keys of /api/log.json: ${(err as Error).message}`);
    }
  } else if ((logDocument?.verifier_keys ?? []).length > 0) {
    problems.push('/api/log.json lists log keys, but there is no log/checkpoint');
  }

  const latest = new Map<string, number>();
  for (const leaf of leaves) latest.set(leaf.id, leaf.index);
  for (const e of index) {
    if (e.leaf_index === null || e.leaf_index === undefined) continue;
    const leaf = leaves[e.leaf_index];
    if (!leaf || leafEntry(leaf) !== leafEntry({ id: e.id, index: e.leaf_index, sha256: e.sha256 })) problems.push(`${e.id}: leaf ${e.leaf_index} of the published log is not this record at its listed sha256`);
    else if (latest.get(e.id) !== e.leaf_index) problems.push(`${e.id}: leaf ${e.leaf_index} is not the record's latest leaf (${latest.get(e.id)})`);
  }
  return problems;
}
