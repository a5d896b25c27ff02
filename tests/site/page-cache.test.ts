/**
 * The record-page cache (src/site/build/cache/page-cache.ts): a key moves with every input of a page; an entry is
 * used only when its bytes hash to its name; pruning keeps exactly the named entries.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { fileIdentity } from '../../src/core/util/file-identity.ts';
import { fileSystemNow } from '../../src/core/util/change-time.ts';
import {
  entryOf,
  PageCache,
  pageCacheKey,
  pageEntryName,
  listPageCache,
  prunePageCache,
  noteStoredSince,
  PRUNE_AFTER,
  pruneDue,
  readStamp,
  writeCheckedStamp,
} from '../../src/site/build/cache/page-cache.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const frame = { base: '/', site: 'https://example.org/', stylesheet: '/styles/site.css?v=abc' };
const page = { entry: { id: 'echo-2026-01-01-000001', path: '2026/echo-2026-01-01-000001.json', archiveDate: '2026-01-01', sha256: 'a'.repeat(64) }, linkedFrom: [], supersededBy: [] };

/** A moment of the file system at `dir` after every one of `files` last changed (its clock moves in ticks). */
async function momentAfter(dir: string, ...files: string[]): Promise<bigint> {
  for (;;) {
    const moment = fileSystemNow(dir)!;
    if (files.every((file) => statSync(file, { bigint: true }).ctimeNs < moment)) return moment;
    await new Promise((wait) => setTimeout(wait, 2));
  }
}

describe('page cache key', () => {
  it('moves with the code, the frame and any part of the page input', () => {
    const base = pageCacheKey('code', frame, page);
    const variants = [
      pageCacheKey('code2', frame, page),
      pageCacheKey('code', { ...frame, base: '/echoes/' }, page),
      pageCacheKey('code', { ...frame, site: undefined }, page),
      pageCacheKey('code', { ...frame, stylesheet: '/styles/site.css?v=abd' }, page),
      pageCacheKey('code', frame, { ...page, entry: { ...page.entry, sha256: 'b'.repeat(64) } }),
      pageCacheKey('code', frame, { ...page, supersededBy: ['echo-2026-02-01-000002'] }),
      pageCacheKey('code', frame, { ...page, linkedFrom: [{ id: 'x' }] }),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
    expect(pageCacheKey('code', frame, page)).toBe(base);
  });

  it('takes any record text, unpaired surrogates included (a key, never a throw)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => /^[0-9a-f]{64}$/.test(pageCacheKey('c', frame, { ...page, title: text }))));
  });
});

describe('entry names', () => {
  const key = 'ab'.padEnd(64, '0');
  const sha = 'cd'.padEnd(64, '1');
  it('reads an entry name by position: its key and kind, and its hash', () => {
    for (const kind of ['html', 'json', 'gz', 'js']) expect(entryOf(`${key}.${sha}.${kind}`)).toEqual({ key, sha256: sha, kind });
  });
  it("reads back every name the cache gives an entry (pageEntryName)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string(), fc.constantFrom('html', 'json', 'gz', 'js'), (k, bytes, kind) => {
        const name = pageEntryName(k, bytes, kind as 'html');
        expect(name.slice(0, 3)).toBe(`${k.slice(0, 2)}/`);
        expect(entryOf(name.slice(3))).toEqual({ key: k, sha256: name.slice(3 + 65, 3 + 129), kind });
      }),
    );
  });
  it('is none for a name of another shape', () => {
    for (const name of [
      `${key}.${sha}.txt`, // another kind
      `${key}.${sha}.htm`,
      `${key}.${sha}`, // no kind
      `${key}-${sha}.html`, // no dot after the key
      `${key}.${sha}0.html`, // a longer hash
      `${key.slice(1)}.${sha}.html`, // a shorter key
      `.${key}.${sha}.html.123.tmp`, // a temporary file
      'checked-before',
      '',
    ]) expect(entryOf(name), name).toBeUndefined();
  });
});

describe('page cache entries', () => {
  const root = tempDir('page-cache-');
  let n = 0;
  const setup = () => {
    const dir = join(root, `c${n++}`);
    const out = join(dir, '..', `out${n}`);
    mkdirSync(out, { recursive: true });
    const cache = new PageCache({ dir, code: 'code', build: `b${n}` });
    const write = (name: string, html: string) => {
      const file = join(out, name);
      writeFileSync(file, html);
      return file;
    };
    return { dir, cache, write };
  };
  const key = 'f'.repeat(64);

  it('given the listing made for the prune, finds what it lists without reading the folders again', async () => {
    const { dir, cache, write } = setup();
    const listed = cache.store(key, write('a.html', '<p>listed</p>'), '<p>listed</p>')!;
    const listing = await listPageCache(dir);
    // Stored after the listing: on disk, not in the listing, so a cache that used it cannot know of it.
    const other = 'e'.repeat(64);
    cache.store(other, write('b.html', '<p>later</p>'), '<p>later</p>');
    const fromListing = new PageCache({ dir, code: 'code', build: 'next' }, listing);
    expect(fromListing.find(key)).toEqual({ name: listed, sha256: sha256Hex('<p>listed</p>'), bytes: Buffer.from('<p>listed</p>') });
    expect(fromListing.find(other)).toBeUndefined();
    expect(new PageCache({ dir, code: 'code', build: 'next' }).find(other)?.bytes.toString()).toBe('<p>later</p>');
    // What it lists is still checked: an entry removed since is not found.
    unlinkSync(join(dir, listed));
    expect(new PageCache({ dir, code: 'code', build: 'third' }, listing).find(key)).toBeUndefined();
  });

  it('lists every folder at once when asked (listEvery): what comes after is not seen, what was there is found', () => {
    const { dir, cache, write } = setup();
    const listed = cache.store(key, write('a.html', '<p>listed</p>'), '<p>listed</p>')!;
    writeFileSync(join(dir, 'checked-before'), 'not a folder of entries\n');
    const ahead = new PageCache({ dir, code: 'code', build: 'next' });
    ahead.listEvery();
    // In the folder it listed, and in one it did not know of: neither is seen.
    const sameFolder = `${key.slice(0, 2)}${'e'.repeat(62)}`;
    cache.store(sameFolder, write('b.html', '<p>later</p>'), '<p>later</p>');
    const newFolder = 'a'.repeat(64);
    cache.store(newFolder, write('c.html', '<p>later</p>'), '<p>later</p>');
    expect(ahead.find(key)?.name).toBe(listed);
    expect(ahead.find(sameFolder)).toBeUndefined();
    expect(ahead.find(newFolder)?.bytes.toString()).toBe('<p>later</p>'); // a folder not listed ahead is listed when needed
    const lazy = new PageCache({ dir, code: 'code', build: 'third' });
    expect(lazy.find(sameFolder)?.bytes.toString()).toBe('<p>later</p>');
  });

  it('stores a page under its key and content hash, and finds it again in a later build', () => {
    const { dir, cache, write } = setup();
    const name = cache.store(key, write('a.html', '<p>page</p>'), '<p>page</p>')!;
    expect(name).toBe(pageEntryName(key, '<p>page</p>'));
    const later = new PageCache({ dir, code: 'code', build: 'next' });
    expect(later.find(key)?.bytes.toString()).toBe('<p>page</p>');
    expect(later.find('e'.repeat(64))).toBeUndefined();
  });

  it("keeps a record's search document beside its page, under the same key: each found as its own kind", () => {
    const { dir, cache, write } = setup();
    cache.store(key, write('a.html', '<p>page</p>'), '<p>page</p>');
    const name = cache.storeBytes(key, '{"document":1}', 'json')!;
    expect(name).toBe(pageEntryName(key, '{"document":1}', 'json'));
    const later = new PageCache({ dir, code: 'code', build: 'next' });
    expect(later.find(key)?.bytes.toString()).toBe('<p>page</p>');
    expect(later.find(key, 'json')?.bytes.toString()).toBe('{"document":1}');
    // A damaged search document is not trusted either (the thread makes it again from the record).
    writeFileSync(join(dir, name), '{"document":2}');
    expect(new PageCache({ dir, code: 'code', build: 'third' }).find(key, 'json')).toBeUndefined();
    expect(readdirSync(join(dir, key.slice(0, 2))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('ignores an entry whose bytes do not match its name (damaged, cut short, tampered)', () => {
    const { dir, cache, write } = setup();
    const name = cache.store(key, write('a.html', '<p>page</p>'), '<p>page</p>')!;
    unlinkSync(join(dir, name));
    writeFileSync(join(dir, name), '<p>pag');
    expect(new PageCache({ dir, code: 'code', build: 'next' }).find(key)).toBeUndefined();
  });

  it('of several entries for one key, finds the whole one, whichever the folder lists first', () => {
    const { dir, cache, write } = setup();
    const good = cache.store(key, write('a.html', '<p>page</p>'), '<p>page</p>')!;
    const damaged = cache.store(key, write('b.html', '<p>other page</p>'), '<p>other page</p>')!;
    unlinkSync(join(dir, damaged));
    writeFileSync(join(dir, damaged), '<p>other pag');
    const prefix = key.slice(0, 2);
    for (const names of [[good, damaged], [damaged, good]].map((pair) => pair.map((name) => name.slice(3)))) {
      const listed = new PageCache({ dir, code: 'code', build: 'next' }, { folders: new Map([[prefix, names]]), files: [] });
      expect(listed.find(key)?.name).toBe(good);
    }
  });

  it('treats an entry removed after it was listed (another build pruned it) as absent', () => {
    const { dir, cache, write } = setup();
    const name = cache.store(key, write('a.html', 'x'), 'x')!;
    const later = new PageCache({ dir, code: 'code', build: 'next' });
    expect(later.find('0'.repeat(64))).toBeUndefined(); // lists another folder only
    unlinkSync(join(dir, name));
    expect(later.find(key)).toBeUndefined();
  });

  it('a cache that cannot be written stores nothing and does not throw (the page itself is already written)', () => {
    const { dir, write } = setup();
    writeFileSync(dir, 'a file where the cache folder should be');
    const blocked = new PageCache({ dir, code: 'code', build: 'x' });
    expect(blocked.store(key, write('a.html', 'a'), 'a')).toBeUndefined();
    expect(blocked.find(key)).toBeUndefined();
  });

  it('pruning keeps exactly the entries named and removes empty folders and stray files', () => {
    const { dir, cache, write } = setup();
    const keep = cache.store(key, write('a.html', 'a'), 'a')!;
    const drop = cache.store('0'.repeat(64), write('b.html', 'b'), 'b')!;
    writeFileSync(join(dir, 'stray.txt'), 'x');
    expect(prunePageCache(dir, new Set([keep]))).toBe(2);
    expect(existsSync(join(dir, keep))).toBe(true);
    expect(existsSync(join(dir, drop))).toBe(false);
    expect(readdirSync(dir)).toEqual([keep.split('/')[0]]);
    expect(readFileSync(join(dir, keep), 'utf8')).toBe('a');
    expect(prunePageCache(join(dir, 'missing'), new Set())).toBe(0);
  });

  it('pruning over an earlier listing removes only what was listed: entries made since stay, and their folder', async () => {
    const { dir, cache, write } = setup();
    const listedKept = cache.store(key, write('a.html', 'a'), 'a')!;
    const listedDropped = cache.store('0'.repeat(64), write('b.html', 'b'), 'b')!;
    const alone = cache.store('1'.repeat(64), write('c.html', 'c'), 'c')!;
    writeFileSync(join(dir, 'stray.txt'), 'x');
    const listing = await listPageCache(dir);
    // Made after the listing: one this build placed (kept), one of another build's, in the folder of a dropped entry.
    const madeSince = cache.store('2'.repeat(64), write('d.html', 'd'), 'd')!;
    const othersSince = cache.store('0'.repeat(63) + '1', write('e.html', 'e'), 'e')!;
    expect(othersSince.split('/')[0]).toBe(listedDropped.split('/')[0]);
    expect(prunePageCache(dir, new Set([listedKept, madeSince]), undefined, listing)).toBe(3);
    for (const name of [listedKept, madeSince, othersSince]) expect(existsSync(join(dir, name)), name).toBe(true);
    for (const name of [listedDropped, alone, 'stray.txt']) expect(existsSync(join(dir, name)), name).toBe(false);
    expect(existsSync(join(dir, alone.split('/')[0]!))).toBe(false); // a listed folder left empty goes
    // Without a listing the same prune lists the folder itself: the other build's entry goes now.
    expect(prunePageCache(dir, new Set([listedKept, madeSince]))).toBe(1);
    expect(existsSync(join(dir, othersSince))).toBe(false);
  });

  it('uses an entry unchanged since the stamp without reading it, and checks one changed since by its hash', async () => {
    const { dir, cache, write } = setup();
    const name = cache.store(key, write('a.html', '<p>page</p>'), '<p>page</p>')!;
    const documentName = cache.storeBytes(key, '{"document":1}', 'json')!;
    // Stamped after the entries were made: known by their change time, the page's bytes not even read.
    const after = new PageCache({ dir, code: 'code', build: 'after', checkedBefore: await momentAfter(dir, join(dir, name), join(dir, documentName)) });
    expect(after.locate(key)).toEqual({ name, sha256: sha256Hex('<p>page</p>'), identity: fileIdentity(lstatSync(join(dir, name), { bigint: true })) });
    expect(after.find(key, 'json')?.bytes.toString()).toBe('{"document":1}'); // asked for: read, not hashed
    expect(after.checks).toEqual({ hashed: 0, known: 2, stored: 0 });
    // Written through after the stamp (the entry is a hard link to a page of the output, which someone edited, same
    // size): its change time is not before the stamp, so its hash decides, and it is refused.
    const before = fileSystemNow(dir)!;
    writeFileSync(join(dir, name), '<p>PAGE</p>');
    writeFileSync(join(dir, documentName), '{"document":2}');
    const next = new PageCache({ dir, code: 'code', build: 'next', checkedBefore: before });
    expect(next.locate(key)).toBeUndefined();
    expect(next.find(key, 'json')).toBeUndefined();
    expect(next.checks).toEqual({ hashed: 2, known: 0, stored: 0 });
    // Made whole again after the stamp: checked by its hash, and used with its bytes.
    writeFileSync(join(dir, name), '<p>page</p>');
    const again = new PageCache({ dir, code: 'code', build: 'again', checkedBefore: before });
    expect(again.locate(key)?.bytes?.toString()).toBe('<p>page</p>');
    expect(again.checks).toEqual({ hashed: 1, known: 0, stored: 0 });
  });

  it('the stamp gives the start of the build that wrote it and the entries stored since; nothing when missing, foreign or after now', () => {
    const { dir } = setup();
    mkdirSync(dir, { recursive: true });
    const started = 1_800_000_000_123_456_789n;
    expect(readStamp(dir, started)).toBeUndefined();
    writeCheckedStamp(dir, started);
    expect(readStamp(dir, started + 5_000_000_000n)).toEqual({ checkedBefore: started, storedSince: 0 });
    expect(readStamp(dir, started - 1n)).toBeUndefined(); // the clock was set back since
    expect(readdirSync(dir)).toEqual(['checked-before']); // no temporary file left
    // A build that stores entries without pruning adds them to the count; the moment stays the prune's.
    noteStoredSince(dir, readStamp(dir, started)!, 7);
    noteStoredSince(dir, readStamp(dir, started)!, 5);
    expect(readStamp(dir, started)).toEqual({ checkedBefore: started, storedSince: 12 });
    for (const text of [
      '',
      'echo-archive page cache stamp 3\n',
      'echo-archive page cache stamp 2\n1800000000123456789\n', // the format before the count: no count, so none
      'echo-archive page cache stamp 3\n1800000000123456789\n',
      'echo-archive page cache stamp 3\n18e20\n0\n',
      'echo-archive page cache stamp 3\n1800000000123456789\n-1\n',
      'echo-archive page cache stamp 3\n1800000000123456789\n0',
    ]) {
      writeFileSync(join(dir, 'checked-before'), text);
      expect(readStamp(dir, started + 5_000_000_000n), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('a prune is due without a stamp, after a build checked many entries by their hash, or once builds stored many', () => {
    const settled = { hashed: 3, known: 200_000, stored: 10 };
    expect(pruneDue(undefined, settled)).toBe(true);
    expect(pruneDue(0, settled)).toBe(false);
    expect(pruneDue(0, { ...settled, hashed: PRUNE_AFTER - 1 })).toBe(false);
    expect(pruneDue(0, { ...settled, hashed: PRUNE_AFTER })).toBe(true);
    // a quarter of the entries used, checked by their hash: a small cache whose entries are mostly new since the stamp
    expect(pruneDue(0, { hashed: 24, known: 76, stored: 0 })).toBe(false);
    expect(pruneDue(0, { hashed: 25, known: 75, stored: 0 })).toBe(true);
    expect(pruneDue(0, { hashed: 0, known: 0, stored: 0 })).toBe(false); // a build that used no entry
    expect(pruneDue(PRUNE_AFTER - 11, settled)).toBe(false);
    expect(pruneDue(PRUNE_AFTER - 10, settled)).toBe(true);
  });

  it('pruning removes the stamp with the rest, and leaves the pruning build\'s own when given its start', () => {
    const { dir, cache, write } = setup();
    const keep = cache.store(key, write('a.html', 'a'), 'a')!;
    expect(cache.checks.stored).toBe(1);
    const now = fileSystemNow(dir)!;
    writeCheckedStamp(dir, now, 40);
    expect(readStamp(dir, now)).toEqual({ checkedBefore: now, storedSince: 40 });
    prunePageCache(dir, new Set([keep]));
    expect(readStamp(dir, now)).toBeUndefined();
    expect(existsSync(join(dir, keep))).toBe(true);
    // the pruning build's own stamp, given its start, is left once the prune is done, its count back at none
    prunePageCache(dir, new Set([keep]), now);
    expect(readStamp(dir, now)).toEqual({ checkedBefore: now, storedSince: 0 });
    expect(existsSync(join(dir, keep))).toBe(true);
  });
});
