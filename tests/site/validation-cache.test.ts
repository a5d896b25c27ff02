/**
 * The site build's validation cache file (src/site/build/cache/validation-cache.ts): verdicts come back as they were
 * put, only for the same code; the file holds exactly one build's verdicts; a damaged, truncated or foreign file,
 * or one of other code, is ignored whole and says why; writing leaves no temporary file behind.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileVerdict } from '../../src/core/archive/verdict-cache.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { openProjectValidationCache, openValidationCache } from '../../src/site/build/cache/validation-cache.ts';
import { readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const base = tempDir('validation-cache-');
let n = 0;
const freshDir = () => join(base, `c${n++}`);

const CODE = sha256Hex('code');
const OTHER_CODE = sha256Hex('other code');
const sha = (s: string) => sha256Hex(s);

const WITH_FINDINGS: FileVerdict = {
  diagnostics: [
    { rule: 'cross/linked-report', severity: 'error', message: 'the linked report "/a\tb\n" does not exist', hint: 'Add it — "quoted"', pointer: '/linked_verification_report/path', line: 12, column: 14 },
    { rule: 'schema/required', severity: 'warning', message: 'ünïcödé ✓', hint: 'h', pointer: '', at: 'key', line: 1, column: 1 },
  ],
  lookedUp: [
    ['r/echo-2026-05-01-000001.json', sha('report')],
    ['nowhere.json', null],
    ['big.json', 'no-record'],
  ],
};
const EMPTY: FileVerdict = { diagnostics: [], lookedUp: [] };
// Paths an archive may hold: tabs, newlines, quotes, backslashes and non-ASCII in names must not break the lines.
const PATHS = ['2026/echo-2026-05-01-000001.json', 'odd/na\tme\n"q"\\.json', 'ü/✓.json', '__proto__'];

/** A cache in `dir` holding WITH_FINDINGS for the first path and EMPTY for the others, saved. */
function saved(dir: string) {
  const cache = openValidationCache(dir, CODE);
  PATHS.forEach((p, i) => cache.put(p, sha(p), i === 0 ? WITH_FINDINGS : EMPTY));
  cache.save();
  return join(dir, 'verdicts.txt');
}

describe('validation cache file', () => {
  it('gives back each verdict as it was put, for the same path and bytes only', () => {
    const dir = freshDir();
    saved(dir);
    const again = openValidationCache(dir, CODE);
    expect(again.loaded).toBe(PATHS.length);
    expect(again.ignored).toBeUndefined();
    expect(again.get(PATHS[0]!, sha(PATHS[0]!))).toEqual(WITH_FINDINGS);
    for (const p of PATHS.slice(1)) expect(again.get(p, sha(p))).toEqual(EMPTY);
    expect(again.get(PATHS[0]!, sha('other bytes'))).toBeUndefined();
    expect(again.get('2026/echo-2026-05-01-000002.json', sha(PATHS[0]!))).toBeUndefined();
  });

  it('keeps apart files of the same bytes at other paths (a copy of a record, an id used twice)', () => {
    const dir = freshDir();
    const cache = openValidationCache(dir, CODE);
    const same = sha('the same bytes');
    const paths = ['a/echo-2026-05-01-000001.json', 'b/echo-2026-05-01-000001.json', 'c/echo-2026-05-01-000001.json'];
    paths.forEach((p, i) => cache.put(p, same, i === 1 ? WITH_FINDINGS : EMPTY));
    cache.save();
    const again = openValidationCache(dir, CODE);
    expect(again.loaded).toBe(3);
    expect(paths.map((p) => again.get(p, same))).toEqual([EMPTY, WITH_FINDINGS, EMPTY]);
    expect(again.get('d/echo-2026-05-01-000001.json', same)).toBeUndefined();
    expect(again.get('a/echo-2026-05-01-000001.jso', same)).toBeUndefined(); // a path that is a prefix of another's
  });

  it('starts empty, without a word, when there is no file', () => {
    const cache = openValidationCache(freshDir(), CODE);
    expect(cache.loaded).toBe(0);
    expect(cache.ignored).toBeUndefined();
    expect(cache.get(PATHS[0]!, sha(PATHS[0]!))).toBeUndefined();
  });

  it('holds exactly the last build\'s verdicts: those reused and those put, not those of files gone', () => {
    const dir = freshDir();
    saved(dir);
    const build = openValidationCache(dir, CODE);
    expect(build.get(PATHS[1]!, sha(PATHS[1]!))).toEqual(EMPTY); // reused, and so kept
    build.put(PATHS[1]!, sha(PATHS[1]!), EMPTY);
    build.get(PATHS[2]!, sha('changed')); // a miss: judged again …
    build.put(PATHS[2]!, sha('changed'), WITH_FINDINGS); // … and put
    build.put('new.json', sha('new'), EMPTY);
    build.save(); // PATHS[0] and PATHS[3] were not asked for: gone from the archive
    const after = openValidationCache(dir, CODE);
    expect(after.loaded).toBe(3);
    expect(after.get(PATHS[1]!, sha(PATHS[1]!))).toEqual(EMPTY);
    expect(after.get(PATHS[2]!, sha('changed'))).toEqual(WITH_FINDINGS);
    expect(after.get(PATHS[2]!, sha(PATHS[2]!))).toBeUndefined();
    expect(after.get('new.json', sha('new'))).toEqual(EMPTY);
    expect(after.get(PATHS[0]!, sha(PATHS[0]!))).toBeUndefined();
    // A verdict found but judged again (the files it looked up changed) is kept as made; a path is kept once.
    const again = openValidationCache(dir, CODE);
    again.get(PATHS[1]!, sha(PATHS[1]!));
    again.put(PATHS[1]!, sha(PATHS[1]!), WITH_FINDINGS);
    expect(() => again.put(PATHS[1]!, sha(PATHS[1]!), EMPTY)).toThrow(/put twice/);
    again.save();
    expect(openValidationCache(dir, CODE).get(PATHS[1]!, sha(PATHS[1]!))).toEqual(WITH_FINDINGS);
  });

  it('ignores a file of other code whole, and says so', () => {
    const dir = freshDir();
    saved(dir);
    const other = openValidationCache(dir, OTHER_CODE);
    expect(other.loaded).toBe(0);
    expect(other.ignored).toMatch(/other code/);
    expect(other.get(PATHS[0]!, sha(PATHS[0]!))).toBeUndefined();
  });

  const damages: [string, (bytes: Buffer) => Buffer | string, RegExp][] = [
    ['a byte changed in a verdict', (b) => Buffer.from(b.toString('utf8').replace('ünïcödé', 'unicode')), /does not match its hash/],
    ['a line removed', (b) => b.toString('utf8').split('\n').filter((_, i) => i !== 4).join('\n'), /does not match its hash/],
    ['truncated', (b) => b.subarray(0, b.length - 40), /does not match its hash/],
    ['truncated in its header', (b) => b.subarray(0, 50), /not a validation cache/],
    ['empty', () => '', /not a validation cache/],
    ['another format', (b) => b.toString('utf8').replace('validation cache 1', 'validation cache 2'), /not a validation cache/],
    ['foreign text', () => 'hello\n', /not a validation cache/],
    ['a verdict line of another shape, with its hash made to match', (b) => {
      const text = b.toString('utf8');
      const head = text.split('\n').slice(0, 2).join('\n');
      const body = 'not a verdict line\n';
      return `${head}\nsha256 ${sha256Hex(body)}\n${body}`;
    }, /not a verdict/],
  ];
  for (const [name, damage, why] of damages) {
    it(`ignores a file ${name}, and says why`, () => {
      const dir = freshDir();
      const file = saved(dir);
      writeFileSync(file, damage(readFileSync(file)));
      const cache = openValidationCache(dir, CODE);
      expect(cache.loaded).toBe(0);
      expect(cache.ignored).toMatch(why);
      for (const p of PATHS) expect(cache.get(p, sha(p))).toBeUndefined();
      // … and is replaced by a good one on the next save.
      cache.put(PATHS[0]!, sha(PATHS[0]!), EMPTY);
      cache.save();
      expect(openValidationCache(dir, CODE).get(PATHS[0]!, sha(PATHS[0]!))).toEqual(EMPTY);
    });
  }

  it('does not take a verdict whose JSON is not a verdict as one (a miss, not a crash)', () => {
    const dir = freshDir();
    const body = `${JSON.stringify(PATHS[0])}\t${sha(PATHS[0]!)}\t{"diagnostics": []}\n${JSON.stringify(PATHS[1])}\t${sha(PATHS[1]!)}\t[[], [["x", 5]]]\n`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'verdicts.txt'), `echo-archive validation cache 1\ncode ${CODE}\nsha256 ${sha256Hex(body)}\n${body}`);
    const cache = openValidationCache(dir, CODE);
    expect(cache.loaded).toBe(2);
    expect(cache.get(PATHS[0]!, sha(PATHS[0]!))).toBeUndefined();
    expect(cache.get(PATHS[1]!, sha(PATHS[1]!))).toBeUndefined();
  });

  it('writes through a temporary file renamed in place, and leaves none behind, even when the rename fails', () => {
    const dir = freshDir();
    saved(dir);
    saved(dir);
    expect(readdirSync(dir)).toEqual(['verdicts.txt']);
    // The file's place is taken by a folder: the rename fails, the error is thrown, and no temporary file stays.
    const blocked = freshDir();
    mkdirSync(join(blocked, 'verdicts.txt', 'x'), { recursive: true });
    const cache = openValidationCache(blocked, CODE);
    expect(cache.ignored).toMatch(/cannot be read/);
    cache.put(PATHS[0]!, sha(PATHS[0]!), EMPTY);
    expect(() => cache.save()).toThrow();
    expect(readdirSync(blocked)).toEqual(['verdicts.txt']);
  });

  it('lives under the build cache folder (ECHO_ARCHIVE_CACHE_DIR), keyed by the validator\'s code', () => {
    const repo = freshDir();
    mkdirSync(join(repo, 'src/core'), { recursive: true });
    writeFileSync(join(repo, 'src/core/rule.ts'), 'export {}');
    const cacheDir = join(repo, 'somewhere');
    const cache = openProjectValidationCache(repo, { ECHO_ARCHIVE_CACHE_DIR: cacheDir });
    expect(cache.file).toBe(join(cacheDir, 'validation', 'verdicts.txt'));
    cache.put(PATHS[0]!, sha(PATHS[0]!), EMPTY);
    cache.save();
    expect(openProjectValidationCache(repo, { ECHO_ARCHIVE_CACHE_DIR: cacheDir }).loaded).toBe(1);
    expect(openProjectValidationCache(repo, {}).file).toBe(join(repo, 'node_modules/.cache/echo-archive/validation/verdicts.txt'));
  });
});

describe('readSiteArchive with the validation cache', () => {
  const saved = { dir: process.env.ECHO_ARCHIVE_CACHE_DIR, off: process.env.ECHO_ARCHIVE_NO_CACHE };
  afterEach(() => {
    for (const [k, v] of [['ECHO_ARCHIVE_CACHE_DIR', saved.dir], ['ECHO_ARCHIVE_NO_CACHE', saved.off]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('says how many files were judged and how many came from the cache, says when it ignored one, and gives the same records', async () => {
    const root = join(freshDir(), 'records');
    cpSync(join(REPO_ROOT, 'records'), root, { recursive: true });
    process.env.ECHO_ARCHIVE_CACHE_DIR = freshDir();
    delete process.env.ECHO_ARCHIVE_NO_CACHE;
    const read = async (options = { repo: REPO_ROOT }) => {
      const said: string[] = [];
      const records = await readSiteArchive(root, { info: (m) => said.push(m), warn: () => undefined }, options);
      return { records, said: said.filter((m) => /validation cache/i.test(m)) };
    };
    const without = await read({} as { repo: string });
    expect(without.said).toEqual([]);
    const cold = await read();
    expect(cold.said).toEqual(['Validation cache: 15 files judged, 0 unchanged (verdicts from the cache)']);
    const warm = await read();
    expect(warm.said).toEqual(['Validation cache: 0 files judged, 15 unchanged (verdicts from the cache)']);
    expect(warm.records).toEqual(without.records);
    expect(cold.records).toEqual(without.records);

    const file = openProjectValidationCache(REPO_ROOT).file;
    const kept = readFileSync(file);
    writeFileSync(file, kept.subarray(0, kept.length - 10));
    const damaged = await read();
    expect(damaged.said).toEqual([
      `The validation cache ${file} was ignored: its content does not match its hash (damaged or truncated); every file is judged`,
      'Validation cache: 15 files judged, 0 unchanged (verdicts from the cache)',
    ]);
    expect(damaged.records).toEqual(without.records);

    // ECHO_ARCHIVE_NO_CACHE: neither read nor written.
    process.env.ECHO_ARCHIVE_NO_CACHE = '1';
    const before = readFileSync(file);
    expect((await read()).said).toEqual([]);
    expect(readFileSync(file)).toEqual(before);
  });
});
