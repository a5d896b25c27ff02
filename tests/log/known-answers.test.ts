/**
 * Interoperability, shown against published answers (../shared/vectors/): RFC 6962 tree hashes, transparency-dev's
 * inclusion and consistency proof suites (every wantErr case refused), C2SP signed notes as Go's note package
 * answers them (and ours opened by the same rules), and a whole tlog-tiles log of 1000 entries written by Go's
 * sumdb/tlog: our writer produces the same tiles byte for byte, our reader verifies it and refuses changed bytes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoint, signCheckpoint } from '../../src/core/log/checkpoint.ts';
import { EMPTY_ROOT, leafHash, MerkleLevels } from '../../src/core/log/merkle.ts';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { keyTag, openNote, parseSignerKey, parseVerifierKey, signerKeyText, signNote } from '../../src/core/log/note.ts';
import { consistencyProofRanges, inclusionProofRanges, verifyConsistency, verifyInclusion } from '../../src/core/log/proof.ts';
import { TileReader } from '../../src/core/log/tile-reader.ts';
import { entryBundles, hashTiles } from '../../src/core/log/tiles.ts';
import { haveVectors, TILES_1000, vector } from './vectors.ts';

const hex = (h: Uint8Array) => Buffer.from(h).toString('hex');
const b64 = (s: string) => Buffer.from(s, 'base64');

describe.skipIf(!haveVectors)('RFC 6962 tree hashes', () => {
  it('gives the published leaf hashes and the root of every size 0–8', () => {
    const v = vector<{ leaf_inputs_hex: string[]; leaf_hashes_hex: string[]; root_by_tree_size_hex: Record<string, string> }>('rfc6962-tree.json');
    const tree = new MerkleLevels();
    expect(hex(tree.root())).toBe(v.root_by_tree_size_hex['0']);
    expect(hex(EMPTY_ROOT)).toBe(v.root_by_tree_size_hex['0']);
    v.leaf_inputs_hex.forEach((input, i) => {
      expect(hex(leafHash(Buffer.from(input, 'hex')))).toBe(v.leaf_hashes_hex[i]);
      tree.appendEntry(Buffer.from(input, 'hex'));
      expect(hex(tree.root())).toBe(v.root_by_tree_size_hex[String(i + 1)]);
    });
    // and every earlier size, from the grown tree
    for (let n = 0; n <= 8; n++) expect(hex(tree.root(n))).toBe(v.root_by_tree_size_hex[String(n)]);
  });
});

interface InclusionCase { case: string; leafIdx: number; treeSize: number; root: string; leafHash: string; proof: string[] | null; wantErr: boolean }
interface ConsistencyCase { case: string; size1: number; size2: number; root1: string; root2: string; proof: string[] | null; wantErr: boolean }

describe.skipIf(!haveVectors)("transparency-dev/merkle's proof suites", () => {
  it('inclusion: every happy path verifies, every wantErr case is refused', () => {
    const { cases } = vector<{ cases: InclusionCase[] }>('merkle-inclusion.json');
    expect(cases.length).toBeGreaterThan(90);
    for (const c of cases) {
      const run = () => verifyInclusion(c.leafIdx, c.treeSize, b64(c.leafHash), (c.proof ?? []).map(b64), b64(c.root));
      if (c.wantErr) expect(run, c.case).toThrow();
      else expect(run, c.case).not.toThrow();
    }
  });

  it('consistency: every happy path verifies, every wantErr case is refused', () => {
    const { cases } = vector<{ cases: ConsistencyCase[] }>('merkle-consistency.json');
    expect(cases.length).toBeGreaterThan(90);
    for (const c of cases) {
      const run = () => verifyConsistency(c.size1, c.size2, (c.proof ?? []).map(b64), b64(c.root1), b64(c.root2));
      if (c.wantErr) expect(run, c.case).toThrow();
      else expect(run, c.case).not.toThrow();
    }
  });

  it('our proofs for the happy paths are the suite\'s proofs (from the RFC 6962 tree of the eight inputs)', () => {
    const v = vector<{ leaf_inputs_hex: string[] }>('rfc6962-tree.json');
    const tree = new MerkleLevels();
    for (const input of v.leaf_inputs_hex) tree.appendEntry(Buffer.from(input, 'hex'));
    let compared = 0;
    for (const c of vector<{ cases: InclusionCase[] }>('merkle-inclusion.json').cases) {
      if (c.wantErr || c.treeSize > 8 || c.treeSize === 0) continue;
      const proof = inclusionProofRanges(c.leafIdx, c.treeSize).map(([lo, hi]) => Buffer.from(tree.rangeHash(lo, hi)).toString('base64'));
      if (b64(c.root).equals(Buffer.from(tree.root(c.treeSize)))) {
        expect(proof, c.case).toEqual(c.proof ?? []);
        compared++;
      }
    }
    for (const c of vector<{ cases: ConsistencyCase[] }>('merkle-consistency.json').cases) {
      if (c.wantErr || c.size2 > 8) continue;
      if (b64(c.root2).equals(Buffer.from(tree.root(c.size2)))) {
        expect(consistencyProofRanges(c.size1, c.size2).map(([lo, hi]) => Buffer.from(tree.rangeHash(lo, hi)).toString('base64')), c.case).toEqual(c.proof ?? []);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});

interface NoteCase { case: string; verifier_keys: string[]; note: string; expect: 'accept' | 'reject'; reason_given_by_reference?: string }

describe.skipIf(!haveVectors)('C2SP signed notes', () => {
  const { cases } = haveVectors ? vector<{ cases: NoteCase[] }>('signed-note.json') : { cases: [] };

  it.each(cases.map((c) => [c.case, c] as const))('%s: as Go answers', (_name, c) => {
    const keys = c.verifier_keys.map(parseVerifierKey);
    if (c.expect === 'accept') {
      expect(openNote(c.note, keys).verifiedBy.length).toBeGreaterThan(0);
    } else {
      expect(() => openNote(c.note, keys)).toThrow(c.reason_given_by_reference === 'malformed note' ? /malformed note/ : c.reason_given_by_reference!);
    }
  });

  it('our signer, with the test log\'s key, writes the published checkpoint byte for byte, and Go\'s rules accept it', () => {
    const log = JSON.parse(readFileSync(join(TILES_1000, 'log.json'), 'utf8')) as { origin: string; verifier_key: string; signer_key_for_tests_only: string };
    const signer = parseSignerKey(log.signer_key_for_tests_only);
    expect(signer.text).toBe(log.verifier_key);
    expect(log.verifier_key.startsWith(`${keyTag(signer)}+`)).toBe(true);
    const published = readFileSync(join(TILES_1000, 'checkpoint'), 'utf8');
    const opened = openCheckpoint(published, [parseVerifierKey(log.verifier_key)]);
    expect(signCheckpoint(opened, [signer])).toBe(published);
    // a text of our own, signed by us, opened under the same rules
    const note = signNote('hello from echo-archive\n', [signer]);
    expect(openNote(note, [parseVerifierKey(log.verifier_key)]).text).toBe('hello from echo-archive\n');
    expect(() => openNote(note.replace('hello', 'jello'), [parseVerifierKey(log.verifier_key)])).toThrow(/invalid signature/);
  });
});

describe('keyTag', () => {
  it('is <name>+<key ID as 8 lowercase hex>, zero-padded, as verifier and signer keys begin', () => {
    expect(keyTag({ name: 'example.org/log', keyId: 0x1a })).toBe('example.org/log+0000001a');
    expect(keyTag({ name: 'x', keyId: 0xffffffff })).toBe('x+ffffffff');
    const { signer, verifier } = signerKeyText('example.org/log', generateEd25519KeyPair().privateKey);
    const tag = keyTag(parseVerifierKey(verifier));
    expect(tag).toMatch(/^example\.org\/log\+[0-9a-f]{8}$/);
    expect(verifier.startsWith(`${tag}+`)).toBe(true);
    expect(signer.startsWith(`PRIVATE+KEY+${tag}+`)).toBe(true);
  });
});

/** Every file of the vector log, by path relative to its folder. */
function filesUnder(dir: string, base = dir): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [k, v] of filesUnder(path, base)) out.set(k, v);
    else out.set(relative(base, path), readFileSync(path));
  }
  return out;
}

describe.skipIf(!haveVectors)('the tlog-tiles log of 1000 entries', () => {
  const entries = Array.from({ length: 1000 }, (_, i) => Buffer.from(`entry ${i}`));

  it('our writer makes exactly its tiles and entry bundles, and its checkpoint root', () => {
    const tree = new MerkleLevels();
    for (const e of entries) tree.appendEntry(e);
    const ours = [...hashTiles(tree), ...entryBundles(entries)];
    const theirs = new Map([...filesUnder(join(TILES_1000, 'tile'))].map(([k, v]) => [`tile/${k}`, v]));
    expect(ours.map((f) => f.path).sort()).toEqual([...theirs.keys()].sort());
    for (const f of ours) expect(Buffer.from(f.bytes).equals(theirs.get(f.path)!), f.path).toBe(true);
    const log = JSON.parse(readFileSync(join(TILES_1000, 'log.json'), 'utf8')) as { verifier_key: string };
    const checkpoint = openCheckpoint(readFileSync(join(TILES_1000, 'checkpoint'), 'utf8'), [parseVerifierKey(log.verifier_key)]);
    expect(checkpoint.size).toBe(1000);
    expect(Buffer.from(tree.root()).equals(Buffer.from(checkpoint.root))).toBe(true);
  });

  const fromDisk = (mutate?: (path: string, bytes: Buffer) => Buffer) => async (path: string) => {
    const file = join(TILES_1000, path);
    if (!existsSync(file)) return undefined;
    const bytes = readFileSync(file);
    return mutate ? mutate(path, bytes) : bytes;
  };

  it('our reader proves inclusion and consistency from its tiles against its checkpoint', async () => {
    const log = JSON.parse(readFileSync(join(TILES_1000, 'log.json'), 'utf8')) as { verifier_key: string };
    const checkpoint = openCheckpoint(readFileSync(join(TILES_1000, 'checkpoint'), 'utf8'), [parseVerifierKey(log.verifier_key)]);
    const reader = new TileReader(1000, fromDisk());
    expect(Buffer.from(await reader.root()).equals(Buffer.from(checkpoint.root))).toBe(true);
    for (const index of [0, 1, 255, 256, 511, 767, 768, 999]) {
      verifyInclusion(index, 1000, leafHash(entries[index]!), await reader.inclusionProof(index), checkpoint.root);
    }
    const small = new MerkleLevels();
    for (const e of entries.slice(0, 300)) small.appendEntry(e);
    verifyConsistency(300, 1000, await reader.consistencyProof(300), small.root(), checkpoint.root);
  });

  it('refuses any changed tile byte, entry or checkpoint byte', async () => {
    const log = JSON.parse(readFileSync(join(TILES_1000, 'log.json'), 'utf8')) as { verifier_key: string };
    const key = parseVerifierKey(log.verifier_key);
    const checkpointText = readFileSync(join(TILES_1000, 'checkpoint'), 'utf8');
    const { root } = openCheckpoint(checkpointText, [key]);
    // one flipped bit in each tile that leaf 600's proof is read from
    const flip = (target: string) => (path: string, bytes: Buffer) => {
      if (path !== target) return bytes;
      const copy = Buffer.from(bytes);
      copy[40] = copy[40]! ^ 1;
      return copy;
    };
    for (const target of ['tile/0/002', 'tile/1/000.p/3', 'tile/0/003.p/232']) {
      const reader = new TileReader(1000, fromDisk(flip(target)));
      // The reader reads the changed tile as it is; the proof it makes then leads to another root.
      const proof = await reader.inclusionProof(600);
      expect(() => verifyInclusion(600, 1000, leafHash(entries[600]!), proof, root), target).toThrow(/^the inclusion proof of leaf 600 leads to root .*, not the expected /);
    }
    // a changed entry
    const reader = new TileReader(1000, fromDisk());
    await expect(reader.inclusionProof(600).then((p) => verifyInclusion(600, 1000, leafHash(Buffer.from('entry 6OO')), p, root))).rejects.toThrow(
      /^the inclusion proof of leaf 600 leads to root .*, not the expected /,
    );
    // every byte of the checkpoint note matters
    for (let i = 0; i < checkpointText.length; i += 7) {
      const changed = checkpointText.slice(0, i) + (checkpointText[i] === 'A' ? 'B' : 'A') + checkpointText.slice(i + 1);
      expect(() => openCheckpoint(changed, [key]), `byte ${i}`).toThrow();
    }
  });
});
