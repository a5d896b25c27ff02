/**
 * The builder's side of the transparency log (/api/log.json, /log/checkpoint, /log/tile/…): which keys to trust,
 * the signed checkpoint, and tiles fetched over HTTP for proofs (src/core/log/tile-reader.ts). Nothing fetched is
 * trusted: the checkpoint must verify with a key, and proofs made from tiles must verify against its root.
 */
import { leafEntryBytes } from '../core/log/archive-log.ts';
import { CheckpointError, openCheckpoint, type OpenedCheckpoint } from '../core/log/checkpoint.ts';
import { leafHash } from '../core/log/merkle.ts';
import { NoteError, parseVerifierKey, type NoteVerifier } from '../core/log/note.ts';
import { CHECKPOINT_PATH, LOG_DOCUMENT_PATH, LOG_PREFIX } from '../core/log/publish.ts';
import { ProofError, verifyInclusion } from '../core/log/proof.ts';
import { TileReader } from '../core/log/tile-reader.ts';
import { info, list, UsageError, type OptionSpec, type ParsedValues } from './cli.ts';
import { getOk, jsonOf, NetworkError } from './net.ts';

export const LOG_KEY_OPTION: OptionSpec = {
  name: 'log-key',
  type: 'string',
  multiple: true,
  value: 'KEY',
  description: 'the log\'s verifier key (<name>+<key ID>+<key>, as /api/log.json lists it); pin it rather than trusting the site each time',
};

export interface LogKeys {
  verifiers: NoteVerifier[];
  /** True when the keys were given on the command line (the log is then required). */
  pinned: boolean;
}

/** The keys given with --log-key, else those /api/log.json lists (undefined when the site publishes no log key). */
export async function logKeys(values: ParsedValues, base: string, seconds: number): Promise<LogKeys | undefined> {
  const given = list(values, 'log-key');
  if (given && given.length > 0) {
    try {
      return { verifiers: given.map(parseVerifierKey), pinned: true };
    } catch (err) {
      throw new UsageError(`--log-key: ${(err as Error).message}`);
    }
  }
  const url = `${base}${LOG_DOCUMENT_PATH}`;
  const res = await getOk(url, seconds, 'application/json', { absentOn404: true });
  if (!res) return undefined;
  const keys = (jsonOf(res) as { verifier_keys?: unknown } | null)?.verifier_keys;
  if (!Array.isArray(keys)) throw new NetworkError(`${url} has no verifier_keys list`);
  if (keys.length === 0) return undefined;
  try {
    const verifiers = keys.map((k) => parseVerifierKey(String(k)));
    info(`log key from ${url} (trusted on first use; pin it with --log-key ${verifiers[0]!.text})`);
    return { verifiers, pinned: false };
  } catch (err) {
    throw new NetworkError(`${url}: ${(err as Error).message}`);
  }
}

/** Verifies and reads a signed checkpoint; throws CheckpointProblem with the reason. */
export function openSignedCheckpoint(note: string, keys: LogKeys, where: string): OpenedCheckpoint {
  try {
    return openCheckpoint(note, keys.verifiers);
  } catch (err) {
    if (err instanceof NoteError || err instanceof CheckpointError) throw new CheckpointProblem(`${where}: ${err.message}`);
    throw err;
  }
}

/** A checkpoint that does not verify with the log key or is not a checkpoint. */
export class CheckpointProblem extends Error {}

export async function fetchCheckpoint(base: string, keys: LogKeys, seconds: number): Promise<OpenedCheckpoint> {
  const url = `${base}${CHECKPOINT_PATH}`;
  const body = await getOk(url, seconds, 'text/plain');
  return openSignedCheckpoint(Buffer.from(body.bytes).toString('utf8'), keys, url);
}

/** A tile reader over HTTP for the tree of the given checkpoint size. */
export function tileReader(base: string, size: number, seconds: number): TileReader {
  return new TileReader(size, async (path) => {
    const url = `${base}${LOG_PREFIX}${path}`;
    return (await getOk(url, seconds, 'application/octet-stream', { absentOn404: true }))?.bytes;
  });
}

export function b64(hash: Uint8Array): string {
  return Buffer.from(hash).toString('base64');
}

/** The record is not proven in the log; the message says why. */
export class NotInLog extends Error {}

export interface InclusionProven {
  checkpoint: OpenedCheckpoint;
  leafIndex: number;
  proofHashes: number;
  tilesFetched: number;
}

/**
 * Proves that the leaf {id, leafIndex, sha256} (the record's current bytes) is in the tree of the site's signed
 * checkpoint: the proof is made from the site's tiles and verified against the checkpoint's root.
 */
export async function proveInclusion(base: string, keys: LogKeys, leaf: { id: string; index: number; sha256: string }, seconds: number): Promise<InclusionProven> {
  let checkpoint: OpenedCheckpoint;
  try {
    checkpoint = await fetchCheckpoint(base, keys, seconds);
  } catch (err) {
    if (err instanceof CheckpointProblem) throw new NotInLog(`the log's checkpoint does not verify: ${err.message}`);
    throw err;
  }
  if (leaf.index >= checkpoint.size) throw new NotInLog(`leaf ${leaf.index} is beyond the signed tree (size ${checkpoint.size})`);
  const reader = tileReader(base, checkpoint.size, seconds);
  let proof: Uint8Array[];
  try {
    proof = await reader.inclusionProof(leaf.index);
  } catch (err) {
    if (err instanceof NetworkError) throw err;
    throw new NotInLog(`the log's tiles cannot give a proof: ${(err as Error).message}`);
  }
  try {
    verifyInclusion(leaf.index, checkpoint.size, leafHash(leafEntryBytes(leaf)), proof, checkpoint.root);
  } catch (err) {
    if (err instanceof ProofError) {
      throw new NotInLog(`leaf ${leaf.index} is not {"id":${JSON.stringify(leaf.id)},"sha256":"${leaf.sha256}"} in the signed tree of size ${checkpoint.size}: ${err.message}`);
    }
    throw err;
  }
  return { checkpoint, leafIndex: leaf.index, proofHashes: proof.length, tilesFetched: reader.fetched };
}
