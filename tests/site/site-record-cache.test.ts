/**
 * What the site keeps of each record, kept between builds (src/site/build/cache/site-record-cache.ts, on the store
 * of src/site/build/cache/keyed-lines.ts): given back for the same path and bytes under the same code only; an
 * unchanged record file is taken from it without being parsed, a changed one is parsed; a build that keeps the same
 * records leaves the file as it is, and a damaged file is ignored and said so.
 */
import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { openProjectSiteRecordCache, openSiteRecordCache } from '../../src/site/build/cache/site-record-cache.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const base = tempDir('site-record-cache-');
let n = 0;
const freshDir = () => join(base, `c${n++}`);
const CODE = sha256Hex('code');

/** Rewrites a keyed-lines file's body with `edit`, its header's hash made to match (a store that is damaged on purpose, undetectably). */
function rewriteBody(file: string, edit: (body: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const body = edit(lines.slice(3).join('\n'));
  writeFileSync(file, `${lines[0]}\n${lines[1]}\nsha256 ${sha256Hex(body)}\n${body}`);
}

describe('site record cache file', () => {
  it('gives back what was put, for the same path, bytes and code only', () => {
    const dir = freshDir();
    const cache = openSiteRecordCache(dir, CODE);
    const kept = { record: { schema_version: 'echo-record-v3', note: 'line\nbreak\ttab "q" ✓' }, excerpt: 'An excerpt ✓' };
    cache.put('2026/a.json', sha256Hex('a'), kept);
    cache.save();
    const again = openSiteRecordCache(dir, CODE);
    expect(again.get('2026/a.json', sha256Hex('a'))).toEqual(kept);
    expect(again.get('2026/a.json', sha256Hex('b'))).toBeUndefined();
    expect(again.get('2026/b.json', sha256Hex('a'))).toBeUndefined();
    const other = openSiteRecordCache(dir, sha256Hex('other code'));
    expect(other.ignored).toMatch(/other code/);
    expect(other.get('2026/a.json', sha256Hex('a'))).toBeUndefined();
  });

  it('does not take a line whose JSON is not a kept record as one (a miss, not a crash)', () => {
    const dir = freshDir();
    const cache = openSiteRecordCache(dir, CODE);
    cache.put('a.json', sha256Hex('a'), { record: {}, excerpt: '' });
    cache.save();
    rewriteBody(cache.file, (body) => body.replace('[{},""]', '[[],1]'));
    expect(openSiteRecordCache(dir, CODE).get('a.json', sha256Hex('a'))).toBeUndefined();
  });
});

describe('readSiteArchive with the site record cache', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['ECHO_ARCHIVE_CACHE_DIR', 'ECHO_ARCHIVE_NO_CACHE']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('takes an unchanged record from it unparsed, parses a changed one, and rewrites the file only when its records change', async () => {
    const root = join(freshDir(), 'records');
    cpSync(join(REPO_ROOT, 'records'), root, { recursive: true });
    process.env.ECHO_ARCHIVE_CACHE_DIR = freshDir();
    delete process.env.ECHO_ARCHIVE_NO_CACHE;
    const said: string[] = [];
    const read = () => readSiteArchive(root, { info: (m) => said.push(m), warn: () => undefined }, { repo: REPO_ROOT });
    const without = await readSiteArchive(root, { info: () => undefined, warn: () => undefined });
    expect(await read()).toEqual(without);
    const file = openProjectSiteRecordCache(REPO_ROOT).file;
    const written = statSync(file, { bigint: true });

    // Nothing changed: the same records, and the file left as it was.
    expect(await read()).toEqual(without);
    const after = statSync(file, { bigint: true });
    expect([after.ino, after.mtimeNs]).toEqual([written.ino, written.mtimeNs]);

    // What the cache holds is what the build takes for an unchanged file: shown by an excerpt only the cache has.
    const [first] = without;
    rewriteBody(file, (body) => body.replace(JSON.stringify(first!.excerpt), JSON.stringify('KEPT, NOT PARSED')));
    const fromCache = await read();
    expect(fromCache[0]!.excerpt).toBe('KEPT, NOT PARSED');
    expect(fromCache.slice(1)).toEqual(without.slice(1));

    // The file changed: parsed again, and the cache holds its new bytes' record.
    writeFileSync(first!.file, readFileSync(first!.file, 'utf8').replace(/\n$/, ' \n'));
    const changed = await read();
    expect(changed[0]!.excerpt).toBe(first!.excerpt);
    expect(changed[0]!.sha256).not.toBe(first!.sha256);
    expect(statSync(file).ino).not.toBe(Number(written.ino));

    // A damaged file: ignored, said so, every record parsed.
    writeFileSync(file, readFileSync(file).subarray(0, -10));
    said.length = 0;
    expect(await read()).toEqual(changed);
    expect(said.filter((m) => /site record cache/.test(m))).toEqual([
      `The site record cache ${file} was ignored: its content does not match its hash (damaged or truncated); every record is parsed`,
    ]);
  });
});
