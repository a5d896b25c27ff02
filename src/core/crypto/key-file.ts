/**
 * Reading a private key file (the builder's submitter key, the gateway's receipt key, the log's signing key): a key
 * file that group or others may open is refused, since anyone else on the machine could have copied the key.
 * The mode is read from the opened file (fstat), so the check and the read see the same file. Windows has no POSIX
 * modes: the check is skipped there.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';

export class KeyFileError extends Error {
  override name = 'KeyFileError';
  readonly kind: 'unreadable' | 'exposed';
  constructor(kind: KeyFileError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

/**
 * The text of the private key file at `path`; `what` names it in messages ("the gateway key file").
 * Throws KeyFileError: 'unreadable' when it cannot be opened, 'exposed' when its mode allows group or other access.
 */
export function readPrivateKeyFile(path: string, what: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new KeyFileError('unreadable', `${what} ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const mode = fstatSync(fd).mode;
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new KeyFileError('exposed', `${what} ${path} allows access by group or others (mode ${(mode & 0o777).toString(8)}): run "chmod 600 ${path}" first`);
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
