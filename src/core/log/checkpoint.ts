/**
 * C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the note text `<origin>\n<tree size>\n<base64 root>\n`
 * (optional extension lines after it; we write none), signed as a signed-note by the log's key.
 */
import { HASH_SIZE, type Hash } from './merkle.ts';
import { NoteError, openNote, signNote, type NoteSigner, type NoteVerifier } from './note.ts';

export interface Checkpoint {
  origin: string;
  size: number;
  root: Hash;
  extensions: string[];
}

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

export function checkpointText({ origin, size, root }: Pick<Checkpoint, 'origin' | 'size' | 'root'>): string {
  if (origin === '' || /[\n\r]/.test(origin)) throw new CheckpointError('a checkpoint origin is one non-empty line');
  if (!Number.isSafeInteger(size) || size < 0) throw new CheckpointError(`tree size ${size}`);
  if (root.length !== HASH_SIZE) throw new CheckpointError('a root hash has 32 bytes');
  return `${origin}\n${size}\n${Buffer.from(root).toString('base64')}\n`;
}

export function parseCheckpointText(text: string): Checkpoint {
  const lines = text.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '') throw new CheckpointError('a checkpoint is at least three lines, each ending in a newline');
  const [origin, sizeText, rootText] = lines as [string, string, string];
  const extensions = lines.slice(3, -1);
  if (origin === '') throw new CheckpointError('the checkpoint has an empty origin line');
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) throw new CheckpointError(`the checkpoint's tree size "${sizeText}" is not a decimal number`);
  const root = Buffer.from(rootText, 'base64');
  if (root.length !== HASH_SIZE || root.toString('base64') !== rootText) throw new CheckpointError("the checkpoint's root is not base64 of 32 bytes");
  if (extensions.some((e) => e === '')) throw new CheckpointError('a checkpoint extension line is empty');
  return { origin, size: Number(sizeText), root, extensions };
}

export function signCheckpoint(checkpoint: Pick<Checkpoint, 'origin' | 'size' | 'root'>, signers: readonly NoteSigner[]): string {
  for (const s of signers) {
    if (s.name !== checkpoint.origin) throw new CheckpointError(`the log key is named "${s.name}", not the log's origin "${checkpoint.origin}"`);
  }
  return signNote(checkpointText(checkpoint), signers);
}

export interface OpenedCheckpoint extends Checkpoint {
  /** The signed note as given. */
  note: string;
  verifiedBy: NoteVerifier[];
}

/**
 * Verifies a signed checkpoint against the log's verifier keys and reads it. The origin must be the name of a key
 * that signed it (a checkpoint of another log signed by a key we know is refused).
 */
export function openCheckpoint(note: string, verifiers: readonly NoteVerifier[]): OpenedCheckpoint {
  const opened = openNote(note, verifiers);
  const checkpoint = parseCheckpointText(opened.text);
  const signedByOrigin = opened.verifiedBy.filter((v) => v.name === checkpoint.origin);
  if (signedByOrigin.length === 0) throw new NoteError('no-verified-signature', `the checkpoint is of log "${checkpoint.origin}", which none of the given keys is named for`);
  return { ...checkpoint, note, verifiedBy: signedByOrigin };
}
