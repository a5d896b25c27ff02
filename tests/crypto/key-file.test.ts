import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyFileError, readPrivateKeyFile } from '../../src/core/crypto/key-file.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const posix = process.platform !== 'win32';

/** The KeyFileError `read` throws; fails the test when it throws nothing or something else. */
function keyFileErrorOf(read: () => unknown): KeyFileError {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(KeyFileError);
    return err as KeyFileError;
  }
  throw new Error('expected a KeyFileError, nothing was thrown');
}

describe('readPrivateKeyFile', () => {
  const dir = tempDir('key-file-test-');
  const path = join(dir, 'secret.key');
  writeFileSync(path, 'the key\n', { mode: 0o600 });

  it('reads a key file only its owner may open', () => {
    chmodSync(path, 0o600);
    expect(readPrivateKeyFile(path, 'the test key file')).toBe('the key\n');
    chmodSync(path, 0o400);
    expect(readPrivateKeyFile(path, 'the test key file')).toBe('the key\n');
  });

  it.runIf(posix)('refuses a key file group or others may open, naming the file, its mode and the fix', () => {
    chmodSync(path, 0o644);
    const err = keyFileErrorOf(() => readPrivateKeyFile(path, 'the test key file'));
    expect(err.kind).toBe('exposed');
    expect(err.message).toBe(`the test key file ${path} allows access by group or others (mode 644): run "chmod 600 ${path}" first`);
    expect(err.message).not.toContain('the key\n');
    chmodSync(path, 0o640);
    expect(keyFileErrorOf(() => readPrivateKeyFile(path, 'k')).message).toContain('(mode 640)');
  });

  it.runIf(posix)('any owner-readable mode is read exactly when group and others have no bit at all', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0o400, max: 0o777 }), (mode) => {
        chmodSync(path, mode);
        if ((mode & 0o077) === 0) expect(readPrivateKeyFile(path, 'k')).toBe('the key\n');
        else expect(keyFileErrorOf(() => readPrivateKeyFile(path, 'k')).message).toContain(`(mode ${mode.toString(8)})`);
      }),
      { numRuns: 100 },
    );
  });

  it('a missing file is unreadable, not exposed', () => {
    const missing = join(dir, 'absent.key');
    const err = keyFileErrorOf(() => readPrivateKeyFile(missing, 'the test key file'));
    expect(err.kind).toBe('unreadable');
    expect(err.message).toBe(`the test key file ${missing} cannot be read (ENOENT)`);
  });
});
