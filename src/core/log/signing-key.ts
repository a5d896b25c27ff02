/**
 * The log's signing key, configured like the gateway's key: never in the repository.
 *
 *   LOG_SIGNING_KEY_FILE  a file holding one or more signer keys (C2SP signed-note form, PRIVATE+KEY+<name>+…),
 *                         one per line; the file must not be readable by group or others (mode 0600)
 *   LOG_SIGNING_KEY       the same text in the environment (for a CI secret), when no file is given
 *
 * Every key signs the checkpoint: two keys during a rotation (the old and the new, both published), then the new one.
 * All keys must carry the log's name (its origin). No key: the build publishes no checkpoint and says so.
 */
import { KeyFileError, readPrivateKeyFile } from '../crypto/key-file.ts';
import { NoteError, parseSignerKey, type NoteSigner } from './note.ts';

export const LOG_SIGNING_KEY_FILE_ENV = 'LOG_SIGNING_KEY_FILE';
export const LOG_SIGNING_KEY_ENV = 'LOG_SIGNING_KEY';

export class LogKeyError extends Error {
  override name = 'LogKeyError';
}

export function parseSignerKeys(text: string, where: string): NoteSigner[] {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length === 0) throw new LogKeyError(`${where} holds no signer key`);
  const signers = lines.map((line, i) => {
    try {
      return parseSignerKey(line);
    } catch (err) {
      throw new LogKeyError(`${where}, key ${i + 1}: ${err instanceof NoteError ? err.message : 'unreadable'}`);
    }
  });
  const names = new Set(signers.map((s) => s.name));
  if (names.size > 1) throw new LogKeyError(`${where}: every log key must carry the log's name; found ${[...names].join(', ')}`);
  return signers;
}

/** The configured signers, or undefined when no key is configured. Throws LogKeyError for a bad or exposed key. */
export function logSigners(env: Record<string, string | undefined> = process.env): NoteSigner[] | undefined {
  const file = env[LOG_SIGNING_KEY_FILE_ENV]?.trim();
  if (file) {
    let text: string;
    try {
      text = readPrivateKeyFile(file, 'the log key file');
    } catch (err) {
      if (!(err instanceof KeyFileError)) throw err;
      throw new LogKeyError(err.kind === 'unreadable' ? `${LOG_SIGNING_KEY_FILE_ENV} names ${file}, which cannot be read` : err.message);
    }
    return parseSignerKeys(text, file);
  }
  const text = env[LOG_SIGNING_KEY_ENV];
  if (text?.trim()) return parseSignerKeys(text, LOG_SIGNING_KEY_ENV);
  return undefined;
}
