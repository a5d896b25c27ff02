/**
 * The store under the validation and site record caches (src/site/build/cache/keyed-lines.ts): a build that keeps the
 * file's lines in its order leaves it alone; one that changes, adds or drops a line writes the file anew, its first
 * lines copied and the rest as they come; a path is kept once; a temporary file of a build that died is removed; a
 * file that cannot be written fails the save, not the build's puts.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { openKeyedLines } from '../../src/site/build/cache/keyed-lines.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const base = tempDir('keyed-lines-');
let n = 0;
const freshDir = () => join(base, `k${n++}`);
const KIND = { magic: 'echo-archive test lines 1', noun: 'test store', lineNoun: 'test line' };
const CODE = sha256Hex('code');
const PATHS = Array.from({ length: 50 }, (_, i) => `2026/echo-2026-05-01-${String(i + 1).padStart(6, '0')}.json`);

/** A store in `dir` holding PATHS with payloads `p<i>`, saved. */
function filled(dir: string): string {
  const lines = openKeyedLines(dir, 'lines.txt', KIND, CODE);
  PATHS.forEach((p, i) => lines.put(p, sha256Hex(p), `p${i}`));
  lines.save();
  return lines.file;
}

/** Opens the store and keeps each path as `keep` says: its payload, another, or none (gone). */
function pass(dir: string, keep: (i: number, found: string | undefined) => string | undefined, extra: [string, string][] = []): void {
  const lines = openKeyedLines(dir, 'lines.txt', KIND, CODE);
  PATHS.forEach((p, i) => {
    const payload = keep(i, lines.get(p, sha256Hex(p)));
    if (payload !== undefined) lines.put(p, sha256Hex(p), payload);
  });
  for (const [p, payload] of extra) lines.put(p, sha256Hex(p), payload);
  lines.save();
}

const payloads = (dir: string) => {
  const lines = openKeyedLines(dir, 'lines.txt', KIND, CODE);
  return [...PATHS, 'new.json'].map((p) => lines.get(p, sha256Hex(p)));
};

describe('keyed lines', () => {
  it('leaves the file alone when a build keeps its lines in order, and writes it anew when one changes, is added or goes', () => {
    const dir = freshDir();
    const file = filled(dir);
    const before = statSync(file, { bigint: true });
    pass(dir, (_, found) => found);
    const after = statSync(file, { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([before.ino, before.mtimeNs]);

    // The 31st line changes: the first 30 are copied, the rest written as they come.
    pass(dir, (i, found) => (i === 30 ? 'changed' : found));
    expect(statSync(file).ino).not.toBe(Number(before.ino));
    expect(payloads(dir)).toEqual([...PATHS.map((_, i) => (i === 30 ? 'changed' : `p${i}`)), undefined]);

    // One added at the end, and one gone from the middle.
    pass(dir, (i, found) => (i === 10 ? undefined : found), [['new.json', 'added']]);
    expect(payloads(dir)).toEqual([...PATHS.map((_, i) => (i === 10 ? undefined : i === 30 ? 'changed' : `p${i}`)), 'added']);
    // The last lines gone: written anew too.
    pass(dir, (i, found) => (i >= 45 ? undefined : found));
    expect(payloads(dir).slice(44)).toEqual(['p44', undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(readdirSync(dir)).toEqual(['lines.txt']);
  });

  it('goes on from the hash it loaded when a build keeps every line and adds one at the end: the file it would write at once', () => {
    const dir = freshDir();
    filled(dir);
    pass(dir, (_, found) => found, [['new.json', 'added']]);
    const once = freshDir();
    pass(once, (i) => `p${i}`, [['new.json', 'added']]);
    expect(readFileSync(join(dir, 'lines.txt'))).toEqual(readFileSync(join(once, 'lines.txt')));
    const lines = openKeyedLines(dir, 'lines.txt', KIND, CODE);
    expect(lines.ignored).toBeUndefined();
    expect(payloads(dir)).toEqual([...PATHS.map((_, i) => `p${i}`), 'added']);
  });

  it("finds the files after one changed in place or added, moved or asked for twice, whose path another's begins with", () => {
    const dir = freshDir();
    const paths = ['a.json', 'a.json.bak', 'b.json', 'c.json', 'd.json'];
    const lines = openKeyedLines(dir, 'lines.txt', KIND, CODE);
    paths.forEach((p) => lines.put(p, sha256Hex(p), `kept ${p}`));
    lines.save();
    const again = openKeyedLines(dir, 'lines.txt', KIND, CODE);
    expect(again.get('a.json', sha256Hex('other bytes'))).toBeUndefined(); // changed in place
    expect(again.get('a.json.bak', sha256Hex('a.json'))).toBeUndefined(); // a.json's bytes, another path
    expect(again.get('a.json.bak', sha256Hex('a.json.bak'))).toBe('kept a.json.bak');
    expect(again.get('d.json', sha256Hex('d.json'))).toBe('kept d.json'); // moved before b and c
    expect(again.get('b.json', sha256Hex('b.json'))).toBe('kept b.json');
    expect(again.get('b.json', sha256Hex('b.json'))).toBe('kept b.json'); // asked for twice
    expect(again.get('c.json', sha256Hex('c.json'))).toBe('kept c.json');
    expect(again.get('e.json', sha256Hex('e.json'))).toBeUndefined(); // added at the end
    // In order throughout: a file added at the end after every line was taken.
    const inOrder = openKeyedLines(dir, 'lines.txt', KIND, CODE);
    for (const p of paths) {
      expect(inOrder.get(p, sha256Hex(p))).toBe(`kept ${p}`);
      inOrder.put(p, sha256Hex(p), `kept ${p}`);
    }
    expect(inOrder.get('e.json', sha256Hex('e.json'))).toBeUndefined();
    expect(inOrder.get('c.json', sha256Hex('c.json'))).toBe('kept c.json'); // taken and kept already: still there
  });

  it('writes a file of megabytes whole: the first lines in one piece, the rest in several writes', () => {
    const dir = freshDir();
    const big = (i: number, tag = '') => `${tag}${String(i).repeat(40_000 / String(i).length)}`; // 40 kB a line: 2 MB in all
    pass(dir, (i) => big(i));
    pass(dir, (i, found) => (i === 30 ? big(i, 'changed ') : found));
    expect(payloads(dir)).toEqual([...PATHS.map((_, i) => (i === 30 ? big(i, 'changed ') : big(i))), undefined]);
  });

  it('writes thousands of short lines a flush whole (more pieces than one gathered write takes)', () => {
    // As the validation cache's lines at 100,000 records: about 150 bytes each, some 7,000 to a flush of 1 MB.
    const dir = freshDir();
    const paths = Array.from({ length: 20_000 }, (_, i) => `2026/echo-2026-05-01-${String(i + 1).padStart(6, '0')}.json`);
    const write = (payload: (i: number) => string) => {
      const lines = openKeyedLines(dir, 'lines.txt', KIND, CODE);
      paths.forEach((p, i) => lines.put(p, sha256Hex(p), payload(i)));
      lines.save();
    };
    write((i) => `verdict ${i}`);
    write((i) => (i === 0 ? 'changed first' : `verdict ${i}`)); // every line goes through the writer
    const lines = openKeyedLines(dir, 'lines.txt', KIND, CODE);
    expect(lines.ignored).toBeUndefined();
    expect(lines.loaded).toBe(paths.length);
    expect(paths.map((p) => lines.get(p, sha256Hex(p)))).toEqual(paths.map((_, i) => (i === 0 ? 'changed first' : `verdict ${i}`)));
  });

  it('keeps a path once, and refuses a payload with a line break', () => {
    const lines = openKeyedLines(freshDir(), 'lines.txt', KIND, CODE);
    lines.put('a.json', sha256Hex('a'), 'one');
    expect(() => lines.put('a.json', sha256Hex('a'), 'two')).toThrow(/put twice/);
    expect(() => lines.put('b.json', sha256Hex('b'), 'two\nlines')).toThrow(/line break/);
  });

  it('removes the temporary file of a build that died, and keeps one of a build still running', () => {
    const dir = freshDir();
    filled(dir);
    writeFileSync(join(dir, '.lines.txt.999999999.1.tmp'), 'left by a build that died');
    writeFileSync(join(dir, `.lines.txt.${process.pid}.2.tmp`), 'a build of this process, running');
    openKeyedLines(dir, 'lines.txt', KIND, CODE);
    expect(readdirSync(dir).sort()).toEqual([`.lines.txt.${process.pid}.2.tmp`, 'lines.txt']);
  });

  it('fails the save, not the puts, when the file cannot be written', () => {
    const notAFolder = join(freshDir() + '-file');
    writeFileSync(notAFolder, 'a file where the folder should be');
    const lines = openKeyedLines(notAFolder, 'lines.txt', KIND, CODE);
    lines.put('a.json', sha256Hex('a'), 'one');
    expect(() => lines.save()).toThrow();
    expect(readFileSync(notAFolder, 'utf8')).toBe('a file where the folder should be');
  });
});
