/**
 * C2SP tlog-tiles (https://c2sp.org/tlog-tiles): the tree published as static files.
 *
 *   tile/<L>/<N>[.p/<W>]        hash tile: the hashes of level 8·L of the tree, 256 per tile (32 bytes each)
 *   tile/entries/<N>[.p/<W>]    entry bundle: the entries of leaves 256·N…, each a 2-byte big-endian length + bytes
 *
 * N is written in groups of three digits, every group but the last prefixed with "x" (1234067 → x001/x234/067). A
 * tile with fewer than 256 hashes is partial, at `.p/<W>`; once full a tile never changes. Hand-written: no npm
 * package writes or reads tlog-tiles (Go's sumdb/tlog and transparency-dev's packages are the references).
 */
import { HASH_SIZE, type MerkleLevels } from './merkle.ts';

export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;
/** The largest entry an entry bundle can hold (its length is a uint16). */
export const MAX_ENTRY_BYTES = 0xffff;

export function tileIndexPath(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`tile index ${n}`);
  const groups: string[] = [];
  let rest = n;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** `tile/<level>/<N>` or its partial form `…/<N>.p/<width>`; level "entries" for entry bundles. */
export function tilePath(level: number | 'entries', index: number, width = TILE_WIDTH): string {
  if (!Number.isInteger(width) || width < 1 || width > TILE_WIDTH) throw new RangeError(`tile width ${width}`);
  return `tile/${level}/${tileIndexPath(index)}${width < TILE_WIDTH ? `.p/${width}` : ''}`;
}

/** How many hashes level L of the tiles holds for a tree of `size` leaves: the complete subtrees of 2^(8L) leaves. */
export function tileLevelCount(level: number, size: number): number {
  return Math.floor(size / 2 ** (TILE_HEIGHT * level));
}

/** The width of tile (level, index) in a tree of `size` leaves (0 when the tree has no such tile). */
export function tileWidth(level: number, index: number, size: number): number {
  return Math.max(0, Math.min(TILE_WIDTH, tileLevelCount(level, size) - index * TILE_WIDTH));
}

export interface TileFile {
  /** Relative to the log's prefix, e.g. tile/0/x001/234.p/17 */
  path: string;
  bytes: Uint8Array;
}

/** Every hash tile of the tree, full and partial, for its current size. */
export function hashTiles(tree: MerkleLevels): TileFile[] {
  const files: TileFile[] = [];
  const size = tree.size;
  for (let level = 0; tileLevelCount(level, size) > 0; level++) {
    const row = tree.levels[TILE_HEIGHT * level]!;
    for (let index = 0; index * TILE_WIDTH < row.length; index++) {
      const width = tileWidth(level, index, size);
      const bytes = Buffer.concat(row.slice(index * TILE_WIDTH, index * TILE_WIDTH + width));
      files.push({ path: tilePath(level, index, width), bytes });
    }
  }
  return files;
}

export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_BYTES) throw new RangeError(`a log entry of ${entry.length} bytes is larger than an entry bundle allows (${MAX_ENTRY_BYTES})`);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(entry.length);
    parts.push(length, entry);
  }
  return Buffer.concat(parts);
}

/** The entries of a bundle; throws when the bytes are not exactly `expected` length-prefixed entries. */
export function decodeEntryBundle(bytes: Uint8Array, expected: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) throw new Error('entry bundle: truncated length');
    const length = (bytes[at]! << 8) | bytes[at + 1]!;
    at += 2;
    if (at + length > bytes.length) throw new Error('entry bundle: truncated entry');
    out.push(bytes.subarray(at, at + length));
    at += length;
  }
  if (out.length !== expected) throw new Error(`entry bundle: ${out.length} entries, expected ${expected}`);
  return out;
}

/** Every entry bundle of the log, full and partial. */
export function entryBundles(entries: readonly Uint8Array[]): TileFile[] {
  const files: TileFile[] = [];
  for (let index = 0; index * TILE_WIDTH < entries.length; index++) {
    const chunk = entries.slice(index * TILE_WIDTH, (index + 1) * TILE_WIDTH);
    files.push({ path: tilePath('entries', index, chunk.length), bytes: encodeEntryBundle(chunk) });
  }
  return files;
}

/** Hash tile bytes → its hashes; throws when the length is not `width` hashes (a full tile may stand in for a partial one). */
export function tileHashes(bytes: Uint8Array, width: number, fullStandsIn = false): Uint8Array[] {
  const ok = bytes.length === width * HASH_SIZE || (fullStandsIn && bytes.length === TILE_WIDTH * HASH_SIZE);
  if (!ok) throw new Error(`a hash tile of width ${width} has ${width * HASH_SIZE} bytes, not ${bytes.length}`);
  const out: Uint8Array[] = [];
  for (let i = 0; i < width; i++) out.push(bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
  return out;
}
