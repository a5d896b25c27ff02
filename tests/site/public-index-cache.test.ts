/**
 * The public index's shards kept between builds (src/site/build/cache/public-index-cache.ts): found again in order
 * for the same code only, each text checked by its hash, the folder holding the last build's shards alone. What the
 * core takes of them: tests/publish/public-index.test.ts; the whole build: tests/build/incremental-build.test.ts.
 */
import { appendFileSync, chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileSystemNow } from '../../src/core/util/change-time.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { openPublicIndexCache } from '../../src/site/build/cache/public-index-cache.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const shard = (n: number, text: string) => ({ key: sha256Hex(`key ${n}`), records: n + 1, file: { path: `/api/index/${n}.json`, text, sha256: sha256Hex(text) } });
const entriesIn = (dir: string) => readdirSync(join(dir, 'entries'), { recursive: true }).filter((name) => String(name).endsWith('.json')).length;

describe('the public index cache', () => {
  it("gives the last build's shards in order, each text read back checked, to the same code only", () => {
    const dir = tempDir('echo-index-cache-');
    expect(openPublicIndexCache(dir, 'code').shards).toEqual([]);
    const made = [shard(1, '{"a":1}\n'), shard(2, '{"b":2}\n'), shard(3, '{"c":3}\n')];
    openPublicIndexCache(dir, 'code').keep(made);
    const kept = openPublicIndexCache(dir, 'code');
    expect(kept.shards.map(({ key, records }) => ({ key, records }))).toEqual(made.map(({ key, records }) => ({ key, records })));
    expect(kept.shards.map((s) => s.read()).map((r) => ({ text: r?.text, sha256: r?.sha256 }))).toEqual(made.map((s) => ({ text: s.file.text, sha256: s.file.sha256 })));
    expect(kept.taken()).toBe(3);
    expect(openPublicIndexCache(dir, 'other code').shards).toEqual([]);
  });

  it("keeps the last build's shards alone, and a damaged text or list is none", () => {
    const dir = tempDir('echo-index-cache-');
    openPublicIndexCache(dir, 'code').keep([shard(1, 'one\n'), shard(2, 'two\n')]);
    const next = openPublicIndexCache(dir, 'code');
    expect(next.shards[0]!.read()?.text).toBe('one\n');
    next.keep([shard(1, 'one\n'), shard(5, 'five\n')]); // the first taken, the second made anew
    expect(entriesIn(dir)).toBe(2);
    const after = openPublicIndexCache(dir, 'code');
    expect(after.shards.map((s) => s.records)).toEqual([2, 6]);
    // a text changed on disk is refused by its hash
    const entries = join(dir, 'entries');
    const [name] = readdirSync(entries, { recursive: true }).map(String).filter((n) => n.endsWith('.json') && n.includes(shard(5, '').key));
    appendFileSync(join(entries, name!), 'x');
    expect(after.shards[1]!.read()).toBeUndefined();
    for (const list of ['', '{"format":"echo-archive public index shards 1","code":"code","shards":[{"key":"zz","records":1}]}', '[]']) {
      writeFileSync(join(dir, 'shards.json'), list);
      expect(openPublicIndexCache(dir, 'code').shards).toEqual([]);
    }
  });

  it('knows a shard the build before checked by its change time, gives the file holding it, and reads its text when asked', async () => {
    const dir = tempDir('echo-index-cache-');
    const made = [shard(1, '{"a":1}\n'), shard(2, '{"b":2}\n')];
    openPublicIndexCache(dir, 'code').keep(made);
    // Stored by the first build: the second, starting once the file system's clock has passed them (it moves in
    // ticks), checks them by their hash and stamps the folder.
    const entries = join(dir, 'entries');
    const stored = readdirSync(entries, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name));
    while (!stored.every((file) => statSync(file, { bigint: true }).ctimeNs < fileSystemNow(entries)!)) await new Promise((wait) => setTimeout(wait, 2));
    const second = openPublicIndexCache(dir, 'code');
    const checked = second.shards.map((s) => s.read()!);
    expect(checked.map((r) => r.source?.identity)).toEqual([undefined, undefined]);
    second.keep(made.map((m, i) => ({ ...m, file: { ...m.file, text: checked[i]!.text } })));
    // The third knows them unchanged: their files by their identity, the text read when asked for, and checked.
    const third = openPublicIndexCache(dir, 'code');
    const known = third.shards.map((s) => s.read()!);
    expect(known.map((r) => typeof r.source?.identity)).toEqual(['string', 'string']);
    expect(known.map((r) => readFileSync(r.source!.file, 'utf8'))).toEqual(made.map((m) => m.file.text));
    expect(known[0]!.text).toBe(made[0]!.file.text);
    appendFileSync(known[1]!.source!.file, 'x');
    expect(() => known[1]!.text).toThrow(/changed during the build; build again/);
  });

  it('a folder that cannot be written costs the next build its shards, never this one', () => {
    const parent = tempDir('echo-index-cache-');
    chmodSync(parent, 0o500);
    try {
      expect(() => openPublicIndexCache(join(parent, 'public-index'), 'code').keep([shard(1, 'one\n')])).not.toThrow();
    } finally {
      chmodSync(parent, 0o700);
    }
  });
});
