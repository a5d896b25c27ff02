/**
 * Proofs from a tiled log (C2SP tlog-tiles) as a client sees it: the hash tiles are fetched (from a URL or a
 * folder; the caller says how), only those a proof needs, each once. Nothing read here is trusted: a proof made
 * from the tiles is verified against a signed checkpoint's root, so a wrong tile makes verification fail.
 */
import { EMPTY_ROOT, nodeHash, perfectSubtreesOf, rangeHashFrom, type Hash } from './merkle.ts';
import { consistencyProofRanges, inclusionProofRanges, type Range } from './proof.ts';
import { TILE_HEIGHT, TILE_WIDTH, tileHashes, tilePath, tileWidth } from './tiles.ts';

/** Fetches a tile by its path relative to the log prefix; undefined when the server has no such file (404). */
export type TileFetcher = (path: string) => Promise<Uint8Array | undefined>;

export class TileReader {
  private readonly tiles = new Map<string, Uint8Array[]>();
  /** How many tiles were fetched (for the builder's report and the benchmark). */
  fetched = 0;

  readonly size: number;
  private readonly fetchTile: TileFetcher;

  constructor(size: number, fetchTile: TileFetcher) {
    this.size = size;
    this.fetchTile = fetchTile;
  }

  private key(level: number, index: number): string {
    return `${level}/${index}`;
  }

  private async load(level: number, index: number): Promise<void> {
    const key = this.key(level, index);
    if (this.tiles.has(key)) return;
    const width = tileWidth(level, index, this.size);
    if (width === 0) throw new Error(`a tree of ${this.size} leaves has no hash tile ${level}/${index}`);
    let bytes = await this.fetchTile(tilePath(level, index, width));
    this.fetched++;
    // A log may drop a partial tile once the full one exists: the full tile's first hashes are the same.
    if (bytes === undefined && width < TILE_WIDTH) {
      bytes = await this.fetchTile(tilePath(level, index));
      this.fetched++;
    }
    if (bytes === undefined) throw new Error(`the log has no hash tile ${tilePath(level, index, width)}`);
    this.tiles.set(key, tileHashes(bytes, width, true));
  }

  /** Where the perfect subtree (level, index) is read from: its tile level, tile, first hash and how many. */
  private locate(level: number, index: number) {
    const tileLevel = Math.floor(level / TILE_HEIGHT);
    const span = 2 ** (level % TILE_HEIGHT);
    const first = index * span;
    return { tileLevel, tile: Math.floor(first / TILE_WIDTH), offset: first % TILE_WIDTH, span };
  }

  /** Fetches every tile that hashing these ranges needs. */
  async prefetch(ranges: readonly Range[]): Promise<void> {
    const wanted = new Map<string, [number, number]>();
    for (const [lo, hi] of ranges) {
      for (const [level, index] of perfectSubtreesOf(lo, hi)) {
        const { tileLevel, tile } = this.locate(level, index);
        wanted.set(this.key(tileLevel, tile), [tileLevel, tile]);
      }
    }
    await Promise.all([...wanted.values()].map(([l, i]) => this.load(l, i)));
  }

  private perfect = (level: number, index: number): Hash => {
    const { tileLevel, tile, offset, span } = this.locate(level, index);
    const hashes = this.tiles.get(this.key(tileLevel, tile));
    if (!hashes) throw new Error(`hash tile ${tileLevel}/${tile} was not fetched`);
    let row = hashes.slice(offset, offset + span);
    if (row.length !== span) throw new Error(`hash tile ${tileLevel}/${tile} is too short for subtree ${level}/${index}`);
    while (row.length > 1) {
      const up: Hash[] = [];
      for (let i = 0; i < row.length; i += 2) up.push(nodeHash(row[i]!, row[i + 1]!));
      row = up;
    }
    return row[0]!;
  };

  async hashRanges(ranges: readonly Range[]): Promise<Hash[]> {
    await this.prefetch(ranges);
    return ranges.map(([lo, hi]) => rangeHashFrom(lo, hi, this.perfect));
  }

  /** The tree's root hash as the tiles give it. */
  async root(): Promise<Hash> {
    if (this.size === 0) return EMPTY_ROOT;
    const [root] = await this.hashRanges([[0, this.size]]);
    return root!;
  }

  async inclusionProof(index: number): Promise<Hash[]> {
    return this.hashRanges(inclusionProofRanges(index, this.size));
  }

  async consistencyProof(oldSize: number): Promise<Hash[]> {
    return this.hashRanges(consistencyProofRanges(oldSize, this.size));
  }
}
