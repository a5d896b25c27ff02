/**
 * RFC 6962 / RFC 9162 Merkle tree hashing (section 2.1): leaf = SHA-256(0x00 || entry), node = SHA-256(0x01 || left
 * || right), the empty tree = SHA-256 of nothing. Hashes are 32-byte Uint8Arrays. Tree sizes and indexes are safe
 * integers (< 2^53): far beyond any archive, and checked wherever they come from outside.
 */
import * as crypto from 'node:crypto';

export const HASH_SIZE = 32;
const LEAF_PREFIX = Buffer.from([0]);
const NODE_PREFIX = Buffer.from([1]);

export type Hash = Uint8Array;

// One-shot crypto.hash (Node ≥ 20.12) is about 40 % faster than a Hash object per node, which matters for 200,000
// hashes at 100,000 records; the builder also runs on older Node 20 releases, hence the fallback.
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'buffer') => Buffer }).hash;
const sha256 = oneShot
  ? (...parts: Uint8Array[]) => oneShot('sha256', parts.length === 1 ? parts[0]! : Buffer.concat(parts), 'buffer')
  : (...parts: Uint8Array[]) => {
      const h = crypto.createHash('sha256');
      for (const p of parts) h.update(p);
      return h.digest();
    };

export function leafHash(entry: Uint8Array): Hash {
  return sha256(LEAF_PREFIX, entry);
}

export function nodeHash(left: Hash, right: Hash): Hash {
  return sha256(NODE_PREFIX, left, right);
}

export const EMPTY_ROOT: Hash = crypto.createHash('sha256').digest();

export function hashesEqual(a: Hash, b: Hash): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0 && 2 ** Math.round(Math.log2(n)) === n;
}

/** The largest power of two strictly below n (n ≥ 2): RFC 6962's split point k. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The hashes of complete subtrees the tree needs, level by level: level 0 holds the leaf hashes, level h the hashes
 * of the perfect subtrees of 2^h leaves (only complete ones). Appending a leaf adds at most one hash per level.
 */
export class MerkleLevels {
  readonly levels: Hash[][] = [[]];

  get size(): number {
    return this.levels[0]!.length;
  }

  appendLeafHash(hash: Hash): void {
    let h = hash;
    for (let level = 0; ; level++) {
      const row = (this.levels[level] ??= []);
      row.push(h);
      if (row.length % 2 === 1) return;
      h = nodeHash(row[row.length - 2]!, h);
    }
  }

  appendEntry(entry: Uint8Array): void {
    this.appendLeafHash(leafHash(entry));
  }

  /** The hash of the perfect subtree of 2^level leaves at position `index` on that level (must be complete). */
  perfect(level: number, index: number): Hash {
    const hash = this.levels[level]?.[index];
    if (hash === undefined) throw new RangeError(`no complete subtree at level ${level}, index ${index} in a tree of ${this.size}`);
    return hash;
  }

  /** MTH(D[lo:hi]) of this tree's leaves, for any range RFC 6962's recursion asks for. */
  rangeHash(lo: number, hi: number): Hash {
    return rangeHashFrom(lo, hi, (level, index) => this.perfect(level, index));
  }

  /** The root hash of the tree's first `size` leaves (default: all). */
  root(size = this.size): Hash {
    if (size < 0 || size > this.size || !Number.isSafeInteger(size)) throw new RangeError(`tree size ${size} outside 0..${this.size}`);
    return size === 0 ? EMPTY_ROOT : this.rangeHash(0, size);
  }
}

/**
 * MTH(D[lo:hi]) from the hashes of perfect subtrees. `lo` must be a multiple of the largest power of two ≤ hi - lo
 * (true of every range RFC 6962's PATH and PROOF recursions visit): the range is then a run of perfect subtrees,
 * largest first, hashed together right to left.
 */
export function rangeHashFrom(lo: number, hi: number, perfect: (level: number, index: number) => Hash): Hash {
  const n = hi - lo;
  if (n <= 0) throw new RangeError(`empty range ${lo}..${hi}`);
  if (isPowerOfTwo(n) && lo % n === 0) return perfect(Math.log2(n), lo / n);
  const k = splitPoint(n);
  return nodeHash(rangeHashFrom(lo, lo + k, perfect), rangeHashFrom(lo + k, hi, perfect));
}

/** Every perfect subtree (level, index) that rangeHashFrom(lo, hi) reads, so a caller can fetch them first. */
export function perfectSubtreesOf(lo: number, hi: number, out: Array<[number, number]> = []): Array<[number, number]> {
  const n = hi - lo;
  if (n <= 0) throw new RangeError(`empty range ${lo}..${hi}`);
  if (isPowerOfTwo(n) && lo % n === 0) {
    out.push([Math.log2(n), lo / n]);
    return out;
  }
  const k = splitPoint(n);
  perfectSubtreesOf(lo, lo + k, out);
  perfectSubtreesOf(lo + k, hi, out);
  return out;
}
