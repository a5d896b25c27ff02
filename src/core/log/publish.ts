/**
 * What the site publishes of the log (under /log/ of the site, a static tlog-tiles log) and the document that
 * describes it for agents (/api/log.json). Pure functions of the committed log and the configured keys.
 */
import { signCheckpoint } from './checkpoint.ts';
import type { MerkleLevels } from './merkle.ts';
import type { NoteSigner, NoteVerifier } from './note.ts';
import { entryBundles, hashTiles, type TileFile } from './tiles.ts';

/** The log's prefix on the site (tlog-tiles paths and the checkpoint are relative to it). */
export const LOG_PREFIX = '/log/';
export const CHECKPOINT_PATH = `${LOG_PREFIX}checkpoint`;
export const LOG_DOCUMENT_PATH = '/api/log.json';
export const LOG_DOCUMENT_SCHEMA = 'service.transparency-log.v1';

/** Where an earlier version of a record is published, by the SHA-256 of its bytes. */
export function versionUrl(sha256: string): string {
  return `${LOG_PREFIX}versions/${sha256}.json`;
}

/** The tiles, entry bundles and (with keys) the signed checkpoint, as paths relative to LOG_PREFIX. */
export function logFiles(entries: readonly Uint8Array[], tree: MerkleLevels, signers: readonly NoteSigner[] | undefined): TileFile[] {
  const files = [...hashTiles(tree), ...entryBundles(entries)];
  if (signers && signers.length > 0) {
    const note = signCheckpoint({ origin: signers[0]!.name, size: tree.size, root: tree.root() }, signers);
    files.push({ path: 'checkpoint', bytes: Buffer.from(note, 'utf8') });
  }
  return files;
}

export interface LogDocument {
  schema: typeof LOG_DOCUMENT_SCHEMA;
  version: 'v1';
  origin: string | null;
  verifier_keys: string[];
  checkpoint: string | null;
  tiles: string;
  notes: string[];
}

export function logDocument(verifiers: readonly NoteVerifier[]): LogDocument {
  const signed = verifiers.length > 0;
  return {
    schema: LOG_DOCUMENT_SCHEMA,
    version: 'v1',
    origin: signed ? verifiers[0]!.name : null,
    verifier_keys: verifiers.map((v) => v.text),
    checkpoint: signed ? CHECKPOINT_PATH : null,
    tiles: LOG_PREFIX,
    notes: [
      'Every published version of every record is a leaf of an append-only Merkle tree (RFC 6962 hashing), published as a C2SP tlog-tiles log under "tiles" and summed up by a C2SP tlog-checkpoint signed as a C2SP signed-note with Ed25519 (verifier_keys, in the signed-note form <name>+<key ID>+<key>).',
      'A leaf entry is the RFC 8785 canonical JSON {"id","index","sha256"}: the record id, the leaf index, and the SHA-256 of the record file\'s exact bytes. The public index gives each record the leaf index of its current bytes (leaf_index).',
      'Verify with the builder: readback --id ID checks a record\'s inclusion, monitor --checkpoint FILE checks that the log extends a checkpoint you saved. Pin the verifier key (--log-key) rather than trusting this document each time.',
      signed ? 'More than one key during a key rotation: each signs the checkpoint.' : 'This build had no log signing key: no checkpoint is published, and inclusion cannot be verified against it.',
    ],
  };
}
