/**
 * Inclusion and consistency proofs (RFC 6962 section 2.1.1–2.1.2, RFC 9162 section 2.1.3–2.1.4).
 *
 * Making a proof is split in two so that the same code serves a tree in memory and a tree read from tiles over
 * the network: `inclusionProofRanges` / `consistencyProofRanges` say which subtrees (leaf ranges) the proof holds,
 * and the caller hashes them (MerkleLevels.rangeHash, or tiles fetched first: src/core/log/tile-reader.ts).
 *
 * Verifying follows transparency-dev/merkle's proof package (the same decomposition into an inner part and a right
 * border), so that every case of its test suite gets the same answer. Sizes and indexes from outside are checked to
 * be safe integers; bit arithmetic is done on BigInt.
 */
import { EMPTY_ROOT, hashesEqual, nodeHash, splitPoint, type Hash } from './merkle.ts';

/** A leaf range [lo, hi) whose Merkle tree hash is one proof element. */
export type Range = readonly [number, number];

export class ProofError extends Error {
  override name = 'ProofError';
}

function checkSize(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new ProofError(`${what} ${value} is not a non-negative integer below 2^53`);
}

/** PATH(m, D[n]): the ranges of an inclusion proof of leaf `index` in a tree of `size` leaves, bottom first. */
export function inclusionProofRanges(index: number, size: number): Range[] {
  checkSize(index, 'leaf index');
  checkSize(size, 'tree size');
  if (index >= size) throw new ProofError(`leaf index ${index} is not in a tree of ${size} leaves`);
  const out: Range[] = [];
  const path = (lo: number, hi: number): void => {
    if (hi - lo === 1) return;
    const k = splitPoint(hi - lo);
    if (index < lo + k) {
      path(lo, lo + k);
      out.push([lo + k, hi]);
    } else {
      path(lo + k, hi);
      out.push([lo, lo + k]);
    }
  };
  path(0, size);
  return out;
}

/** PROOF(m, D[n]): the ranges of a consistency proof from size `m` to size `n`, bottom first. Empty when m is 0 or n. */
export function consistencyProofRanges(m: number, n: number): Range[] {
  checkSize(m, 'old tree size');
  checkSize(n, 'new tree size');
  if (m > n) throw new ProofError(`a tree of ${n} leaves cannot extend one of ${m}`);
  if (m === 0 || m === n) return [];
  const out: Range[] = [];
  const subproof = (lo: number, hi: number, whole: boolean): void => {
    if (m === hi) {
      if (!whole) out.push([lo, hi]);
      return;
    }
    const k = splitPoint(hi - lo);
    if (m <= lo + k) {
      subproof(lo, lo + k, whole);
      out.push([lo + k, hi]);
    } else {
      subproof(lo + k, hi, false);
      out.push([lo, lo + k]);
    }
  };
  subproof(0, n, true);
  return out;
}

const big = BigInt;

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

function onesCount(x: bigint): number {
  let n = 0;
  for (const c of x.toString(2)) if (c === '1') n++;
  return n;
}

function trailingZeros(x: bigint): number {
  let n = 0;
  while (x > 0n && (x & 1n) === 0n) {
    x >>= 1n;
    n++;
  }
  return n;
}

/** How many proof hashes lie inside the perfect subtrees on the leaf's side, and how many along the right border. */
function decomposeInclusion(index: bigint, size: bigint): { inner: number; border: number } {
  const inner = bitLength(index ^ (size - 1n));
  const border = onesCount(index >> big(inner));
  return { inner, border };
}

function chainInner(seed: Hash, proof: readonly Hash[], index: bigint): Hash {
  let h = seed;
  proof.forEach((p, i) => {
    h = ((index >> big(i)) & 1n) === 0n ? nodeHash(h, p) : nodeHash(p, h);
  });
  return h;
}

function chainInnerRight(seed: Hash, proof: readonly Hash[], index: bigint): Hash {
  let h = seed;
  proof.forEach((p, i) => {
    if (((index >> big(i)) & 1n) === 1n) h = nodeHash(p, h);
  });
  return h;
}

function chainBorderRight(seed: Hash, proof: readonly Hash[]): Hash {
  let h = seed;
  for (const p of proof) h = nodeHash(p, h);
  return h;
}

function checkHashes(hashes: readonly Hash[], what: string): void {
  for (const h of hashes) if (h.length !== 32) throw new ProofError(`${what}: a hash of ${h.length} bytes, not 32`);
}

/** The root an inclusion proof leads to; throws ProofError when the proof cannot be one for this index and size. */
export function rootFromInclusionProof(index: number, size: number, leaf: Hash, proof: readonly Hash[]): Hash {
  checkSize(index, 'leaf index');
  checkSize(size, 'tree size');
  if (index >= size) throw new ProofError(`leaf index ${index} is not in a tree of ${size} leaves`);
  checkHashes([leaf, ...proof], 'inclusion proof');
  const { inner, border } = decomposeInclusion(big(index), big(size));
  if (proof.length !== inner + border) throw new ProofError(`an inclusion proof for leaf ${index} of ${size} has ${inner + border} hashes, not ${proof.length}`);
  const res = chainInner(leaf, proof.slice(0, inner), big(index));
  return chainBorderRight(res, proof.slice(inner));
}

/** Throws ProofError unless `proof` proves leaf hash `leaf` at `index` in the tree of `size` leaves with `root`. */
export function verifyInclusion(index: number, size: number, leaf: Hash, proof: readonly Hash[], root: Hash): void {
  const computed = rootFromInclusionProof(index, size, leaf, proof);
  if (!hashesEqual(computed, root)) throw new ProofError(`the inclusion proof of leaf ${index} leads to root ${b64(computed)}, not the expected ${b64(root)}`);
}

/** Throws ProofError unless `proof` proves that the tree (size2, root2) extends the tree (size1, root1). */
export function verifyConsistency(size1: number, size2: number, proof: readonly Hash[], root1: Hash, root2: Hash): void {
  checkSize(size1, 'old tree size');
  checkSize(size2, 'new tree size');
  checkHashes(proof, 'consistency proof');
  if (size2 < size1) throw new ProofError(`the new tree (${size2} leaves) is smaller than the old one (${size1})`);
  if (size1 === 0) {
    // RFC 9162 2.1.4.2: the empty tree has one root, and there is no proof from it (every tree extends it; callers
    // that hold an empty checkpoint need no proof).
    if (size2 !== 0) throw new ProofError('there is no consistency proof from the empty tree: every tree extends it');
    if (proof.length > 0 || !hashesEqual(root1, EMPTY_ROOT) || !hashesEqual(root2, EMPTY_ROOT)) throw new ProofError('two empty trees have the empty root and an empty proof');
    return;
  }
  if (size1 === size2) {
    if (proof.length > 0) throw new ProofError('a consistency proof between equal sizes must be empty');
    if (!hashesEqual(root1, root2)) throw new ProofError(`two different roots for the same tree size ${size1}`);
    return;
  }
  if (proof.length === 0) throw new ProofError('empty consistency proof');
  const decomposed = decomposeInclusion(big(size1 - 1), big(size2));
  const shift = trailingZeros(big(size1));
  const inner = decomposed.inner - shift;
  const { border } = decomposed;
  // When size1 is a power of two its root is a node of the new tree and the proof leaves it out.
  const oldIsPerfect = big(size1) === 1n << big(shift);
  const seed = oldIsPerfect ? root1 : proof[0]!;
  const rest = oldIsPerfect ? proof : proof.slice(1);
  if (rest.length !== inner + border) {
    throw new ProofError(`a consistency proof from ${size1} to ${size2} has ${inner + border + (oldIsPerfect ? 0 : 1)} hashes, not ${proof.length}`);
  }
  const mask = big(size1 - 1) >> big(shift);
  const innerPart = rest.slice(0, inner);
  const borderPart = rest.slice(inner);
  const hash1 = chainBorderRight(chainInnerRight(seed, innerPart, mask), borderPart);
  if (!hashesEqual(hash1, root1)) throw new ProofError(`the consistency proof leads to old root ${b64(hash1)}, not the saved ${b64(root1)}`);
  const hash2 = chainBorderRight(chainInner(seed, innerPart, mask), borderPart);
  if (!hashesEqual(hash2, root2)) throw new ProofError(`the consistency proof leads to new root ${b64(hash2)}, not the checkpoint's ${b64(root2)}`);
}

function b64(h: Hash): string {
  return Buffer.from(h).toString('base64');
}
