/**
 * Property tests: for random sequences of appends, every inclusion proof and every consistency proof verifies (made
 * in memory and made from the tiles, which must agree), the tree agrees with RFC 6962's recursive definition, and a
 * changed leaf or a dropped leaf makes verification fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_ROOT, leafHash, MerkleLevels, nodeHash, splitPoint, type Hash } from '../../src/core/log/merkle.ts';
import { consistencyProofRanges, inclusionProofRanges, ProofError, verifyConsistency, verifyInclusion } from '../../src/core/log/proof.ts';
import { TileReader } from '../../src/core/log/tile-reader.ts';
import { hashTiles } from '../../src/core/log/tiles.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 60);

/** RFC 6962 section 2.1, literally. */
function mth(entries: readonly Uint8Array[]): Hash {
  if (entries.length === 0) return EMPTY_ROOT;
  if (entries.length === 1) return leafHash(entries[0]!);
  const k = splitPoint(entries.length);
  return nodeHash(mth(entries.slice(0, k)), mth(entries.slice(k)));
}

// Distinct entries (each starts with its position), as the archive's are (each names its leaf index): with two equal
// leaves, a proof for one is also a proof for the other.
const entriesArb = (max: number) =>
  fc.array(fc.uint8Array({ maxLength: 12 }), { minLength: 1, maxLength: max }).map((list) => list.map((e, i) => Buffer.concat([Buffer.from(`${i}:`), e])));

function treeOf(entries: readonly Uint8Array[]): MerkleLevels {
  const tree = new MerkleLevels();
  for (const e of entries) tree.appendEntry(e);
  return tree;
}

const inMemory = (tree: MerkleLevels, ranges: ReadonlyArray<readonly [number, number]>) => ranges.map(([lo, hi]) => tree.rangeHash(lo, hi));

describe('proofs over random appends', () => {
  it('the tree is RFC 6962\'s Merkle tree hash at every size', () => {
    fc.assert(
      fc.property(entriesArb(40), (entries) => {
        const tree = treeOf(entries);
        for (let n = 0; n <= entries.length; n++) expect(Buffer.from(tree.root(n)).equals(Buffer.from(mth(entries.slice(0, n))))).toBe(true);
      }),
      { numRuns: runs },
    );
  });

  it('every inclusion proof verifies; a changed leaf, another index or a dropped proof hash does not', () => {
    fc.assert(
      fc.property(entriesArb(70), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }), (entries, pick, other) => {
        const tree = treeOf(entries);
        const size = entries.length;
        const index = pick % size;
        const proof = inMemory(tree, inclusionProofRanges(index, size));
        verifyInclusion(index, size, leafHash(entries[index]!), proof, tree.root());
        const changed = Buffer.concat([entries[index]!, other]);
        expect(() => verifyInclusion(index, size, leafHash(changed), proof, tree.root())).toThrow(ProofError);
        if (size > 1) {
          expect(() => verifyInclusion((index + 1) % size, size, leafHash(entries[index]!), proof, tree.root())).toThrow(ProofError);
          expect(() => verifyInclusion(index, size, leafHash(entries[index]!), proof.slice(1), tree.root())).toThrow(ProofError);
        }
      }),
      { numRuns: runs },
    );
  });

  it('every consistency proof verifies; a changed or dropped earlier leaf makes it fail', () => {
    fc.assert(
      fc.property(entriesArb(70), fc.nat(), fc.nat(), (entries, a, b) => {
        const size2 = entries.length;
        const size1 = 1 + (a % size2);
        const tree = treeOf(entries);
        const proof = inMemory(tree, consistencyProofRanges(size1, size2));
        verifyConsistency(size1, size2, proof, tree.root(size1), tree.root());
        // the new tree with one of the first size1 leaves changed, or dropped: it no longer extends the old one
        const at = b % size1;
        const changed = [...entries];
        changed[at] = Buffer.concat([entries[at]!, Buffer.from([0xff])]);
        const dropped = entries.filter((_, i) => i !== at);
        for (const rewritten of [changed, dropped]) {
          if (rewritten.length < size1) continue;
          const t = treeOf(rewritten);
          const p = inMemory(t, consistencyProofRanges(size1, rewritten.length));
          expect(() => verifyConsistency(size1, rewritten.length, p, tree.root(size1), t.root())).toThrow(ProofError);
        }
      }),
      { numRuns: runs },
    );
  });

  it('proofs made from the tiles are the proofs made in memory (trees across tile boundaries)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1300 }), fc.nat(), fc.nat(), async (size, i, m) => {
        const entries = Array.from({ length: size }, (_, k) => Buffer.from(`e${k}`));
        const tree = treeOf(entries);
        const tiles = new Map(hashTiles(tree).map((f) => [f.path, f.bytes]));
        const reader = new TileReader(size, async (path) => tiles.get(path));
        expect(Buffer.from(await reader.root()).equals(Buffer.from(tree.root()))).toBe(true);
        const index = i % size;
        const fromTiles = await reader.inclusionProof(index);
        expect(fromTiles.map((h) => Buffer.from(h).toString('hex'))).toEqual(inMemory(tree, inclusionProofRanges(index, size)).map((h) => Buffer.from(h).toString('hex')));
        const old = 1 + (m % size);
        verifyConsistency(old, size, await reader.consistencyProof(old), tree.root(old), tree.root());
      }),
      { numRuns: Math.max(10, Math.floor(runs / 3)) },
    );
  });
});
