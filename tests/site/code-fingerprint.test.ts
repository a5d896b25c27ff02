/** The code fingerprint that keys the build's caches (src/site/build/cache/code-fingerprint.ts) moves with any byte of the code. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFingerprint } from '../../src/site/build/cache/code-fingerprint.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('code fingerprint', () => {
  const root = tempDir('fingerprint-');
  let n = 0;
  // A fresh project folder per case: the fingerprint is memoised per folder and paths.
  const project = (files: Record<string, string>) => {
    const dir = join(root, `p${n++}`);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  const base = { 'src/a.ts': 'a', 'src/render/b.ts': 'b', 'lock.json': '{}' };
  const paths = ['src', 'lock.json', 'absent'];

  it('is the same for the same files wherever the project is', () => {
    expect(codeFingerprint(project(base), paths)).toBe(codeFingerprint(project(base), paths));
  });

  it('moves with a changed byte, an added, removed or renamed file, and a file appearing where one was missing', () => {
    const before = codeFingerprint(project(base), paths);
    const variants: Record<string, string>[] = [
      { ...base, 'src/render/b.ts': 'B' },
      { ...base, 'src/render/c.ts': '' },
      { 'src/a.ts': 'a', 'lock.json': '{}' },
      { 'src/a.ts': 'a', 'src/render/c.ts': 'b', 'lock.json': '{}' },
      { ...base, absent: '' },
    ];
    const after = variants.map((v) => codeFingerprint(project(v), paths));
    expect(new Set([before, ...after]).size).toBe(variants.length + 1);
  });

  it('ignores files outside the given paths', () => {
    const dir = project(base);
    const before = codeFingerprint(dir, ['src']);
    const other = project({ ...base, 'docs/x.md': 'x', 'lock.json': 'changed' });
    expect(codeFingerprint(other, ['src'])).toBe(before);
  });
});
