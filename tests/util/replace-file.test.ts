/** replaceCacheFile (src/core/util/replace-file.ts): a cache file replaced whole, or left as it was, and no temporary file left. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceCacheFile } from '../../src/core/util/replace-file.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('replaceCacheFile', () => {
  it('writes a new file and replaces an old one whole, leaving nothing beside it', () => {
    const dir = tempDir('echo-replace-file-');
    const file = join(dir, 'stamp');
    expect(replaceCacheFile(file, 'first\n')).toBe(true);
    expect(replaceCacheFile(file, Buffer.from('second\n'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('second\n');
    expect(readdirSync(dir)).toEqual(['stamp']);
  });

  it('says false and leaves nothing when the file cannot be written', () => {
    const dir = tempDir('echo-replace-file-');
    writeFileSync(join(dir, 'a file'), 'not a folder');
    expect(replaceCacheFile(join(dir, 'a file', 'stamp'), 'x')).toBe(false);
    expect(replaceCacheFile(join(dir, 'missing', 'stamp'), 'x')).toBe(false);
    // A folder where the file belongs: the temporary file is written, the rename fails, and it is removed.
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'inside'), 'kept');
    expect(replaceCacheFile(join(dir, 'taken'), 'x')).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['a file', 'taken']);
    expect(readFileSync(join(dir, 'taken', 'inside'), 'utf8')).toBe('kept');
  });
});
