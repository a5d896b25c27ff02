/**
 * Updating a folder in place (src/core/util/update-in-place.ts): a file is replaced only when it would change, never
 * written through (it may be a hard link to a cache entry), and a folder in any state — the previous build's, or one
 * a killed build left half-updated — ends holding exactly what was placed.
 */
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, type Dirent } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filesUnder, linkIfChanged, listTree, listTreeInSlices, moveIfChanged, pruneFolder, pruneListed, setAsideKept, writeIfChanged, type TreeListing } from '../../src/core/util/update-in-place.ts';
import { runToEnd } from '../../src/core/util/time-slices.ts';
import { fileIdentity } from '../../src/core/util/file-identity.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const put = (file: string, text: string) => (mkdirSync(dirname(file), { recursive: true }), writeFileSync(file, text));
const inode = (file: string) => statSync(file).ino;

describe('writeIfChanged', () => {
  it('leaves a file that holds the bytes; replaces one that does not, without writing through a link', () => {
    const dir = tempDir('in-place-');
    const file = join(dir, 'a', 'index.html');
    expect(writeIfChanged(file, 'page')).toBe(true);
    const before = inode(file);
    expect(writeIfChanged(file, 'page')).toBe(false);
    expect(inode(file)).toBe(before);
    // the page is a hard link to a cache entry: the entry keeps its bytes
    const entry = join(dir, 'entry.html');
    linkSync(file, entry);
    expect(writeIfChanged(file, 'another page')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('another page');
    expect(readFileSync(entry, 'utf8')).toBe('page');
    // same length, other bytes
    expect(writeIfChanged(file, 'another PAGE')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('another PAGE');
  });

  it('replaces a folder where the file belongs, and a file where a folder belongs', () => {
    const dir = tempDir('in-place-');
    put(join(dir, 'x', 'inner', 'f'), 'old');
    expect(writeIfChanged(join(dir, 'x'), 'now a file')).toBe(true);
    expect(readFileSync(join(dir, 'x'), 'utf8')).toBe('now a file');
    put(join(dir, 'y'), 'a file');
    expect(writeIfChanged(join(dir, 'y', 'z', 'index.html'), 'under a folder now')).toBe(true);
    expect(readFileSync(join(dir, 'y', 'z', 'index.html'), 'utf8')).toBe('under a folder now');
  });
});

describe('linkIfChanged', () => {
  it('leaves the very file; makes the same bytes in a file of their own a link; links anew over other bytes, a symbolic link or a folder', () => {
    const dir = tempDir('in-place-');
    const source = join(dir, 'record.json');
    put(source, '{}');
    const file = join(dir, 'site', 'record.json');
    expect(linkIfChanged(source, file)).toEqual({ how: 'linked', changed: true });
    const kept = linkIfChanged(source, file);
    expect(kept).toMatchObject({ how: 'linked', changed: false });
    expect(kept.status?.ino).toBe(lstatSync(file, { bigint: true }).ino); // left as found: its status comes along
    const other = join(dir, 'other.json');
    put(other, '{}');
    expect(linkIfChanged(other, file)).toEqual({ how: 'linked', changed: false }); // the same bytes: a link now, no change
    expect(inode(file)).toBe(inode(other));
    expect(readdirSync(join(dir, 'site'))).toEqual(['record.json']); // nothing left beside it
    const third = join(dir, 'third.json');
    put(third, '[]');
    expect(linkIfChanged(third, file)).toEqual({ how: 'linked', changed: true }); // other bytes: linked anew
    expect(inode(file)).toBe(inode(third));
    expect([readFileSync(source, 'utf8'), readFileSync(other, 'utf8')]).toEqual(['{}', '{}']); // not written through
    const link = join(dir, 'site', 'symbolic.json');
    symlinkSync(source, link);
    expect(linkIfChanged(source, link).changed).toBe(true);
    expect(inode(link)).toBe(inode(source));
    put(join(dir, 'site', 'folder.json', 'f'), 'x');
    expect(linkIfChanged(source, join(dir, 'site', 'folder.json')).changed).toBe(true);
  });
});

describe('linkIfChanged with the source known by its hash', () => {
  it('leaves the same bytes in a file of their own as they are, checking the source by its hash first', () => {
    const dir = tempDir('in-place-');
    const source = join(dir, 'entry.html');
    put(source, '<p>page</p>');
    const file = join(dir, 'site', 'index.html');
    put(file, '<p>page</p>'); // a clean build's own file
    const before = inode(file);
    const sha256 = sha256Hex('<p>page</p>');
    const kept = linkIfChanged(source, file, { sha256 });
    expect(kept).toMatchObject({ how: 'copied', changed: false });
    expect(kept.status?.ino).toBe(lstatSync(file, { bigint: true }).ino);
    expect([inode(file), statSync(source).nlink]).toEqual([before, 1]); // no link made: the source's status unchanged
    expect(linkIfChanged(source, file, { sha256, bytes: Buffer.from('<p>page</p>') }).changed).toBe(false); // bytes given: not read
    // A source that no longer hashes as the caller checked it: refused, and the file left as it was.
    writeFileSync(source, '<p>edit</p>');
    expect(() => linkIfChanged(source, file, { sha256 })).toThrow(/no longer holds the bytes/);
    expect([inode(file), readFileSync(file, 'utf8')]).toEqual([before, '<p>page</p>']);
    // Other bytes in the file: linked anew, as without the hash.
    writeFileSync(source, '<p>page</p>');
    writeFileSync(file, '<p>other</p>');
    expect(linkIfChanged(source, file, { sha256 })).toEqual({ how: 'linked', changed: true });
    expect(inode(file)).toBe(inode(source));
  });
});

describe('linkIfChanged with the source known', () => {
  it('leaves the file that is the source as the caller knew it without looking at the source, and links anew otherwise', () => {
    const dir = tempDir('in-place-');
    const source = join(dir, 'record.json');
    put(source, '{"v":1}');
    const file = join(dir, 'site', 'record.json');
    linkIfChanged(source, file);
    const identity = fileIdentity(lstatSync(source, { bigint: true }));
    // The source replaced since the caller looked (a new file at its path): the file stays the one the caller checked.
    rmSync(source);
    put(source, '{"v":2}');
    const kept = linkIfChanged(source, file, { identity });
    expect(kept).toMatchObject({ how: 'linked', changed: false });
    expect(fileIdentity(kept.status!)).toBe(identity);
    expect(readFileSync(file, 'utf8')).toBe('{"v":1}');
    // Without the identity it looks at the source, and links the new one.
    expect(linkIfChanged(source, file)).toEqual({ how: 'linked', changed: true });
    expect(readFileSync(file, 'utf8')).toBe('{"v":2}');
    // An identity the file is not: the source decides, as without one.
    expect(linkIfChanged(source, file, { identity: '0:0' })).toMatchObject({ how: 'linked', changed: false });
  });
});

describe('moveIfChanged', () => {
  it('moves a file in unless the same bytes are there (then the source is left)', () => {
    const dir = tempDir('in-place-');
    put(join(dir, 'from', 'a'), 'astro');
    put(join(dir, 'to', 'a'), 'astro');
    const kept = inode(join(dir, 'to', 'a'));
    expect(moveIfChanged(join(dir, 'from', 'a'), join(dir, 'to', 'a'))).toBe(false);
    expect(inode(join(dir, 'to', 'a'))).toBe(kept);
    put(join(dir, 'from', 'a'), 'astro, changed');
    expect(moveIfChanged(join(dir, 'from', 'a'), join(dir, 'to', 'a'))).toBe(true);
    expect(readFileSync(join(dir, 'to', 'a'), 'utf8')).toBe('astro, changed');
    expect(filesUnder(join(dir, 'from'))).toEqual([]);
  });
});

describe('pruneListed', () => {
  it('removes the listed files not kept and the listed folders left empty; what came after the listing stays', () => {
    const dir = tempDir('in-place-');
    for (const path of ['keep/a', 'drop/c', 'drop/deeper/d', 'file-then-folder', 'folder-then-file/x', 'e']) put(join(dir, path), path);
    const listing = listTree(dir);
    expect(listing.folders).toEqual(expect.arrayContaining(['drop/deeper', 'drop']));
    expect(listing.folders.indexOf('drop/deeper')).toBeLessThan(listing.folders.indexOf('drop'));
    // after the listing: kept files arrive, one where a file was (now a folder), one where a folder was (now a file)
    put(join(dir, 'new/kept'), 'n');
    writeIfChanged(join(dir, 'file-then-folder', 'kept'), 'f');
    writeIfChanged(join(dir, 'folder-then-file'), 'g');
    rmSync(join(dir, 'e')); // and one listed file is gone already
    expect(pruneListed(dir, listing, new Set(['keep/a', 'new/kept', 'file-then-folder/kept', 'folder-then-file']))).toBe(2);
    expect(filesUnder(dir).sort()).toEqual(['file-then-folder/kept', 'folder-then-file', 'keep/a', 'new/kept']);
    expect(readdirSync(dir).sort()).toEqual(['file-then-folder', 'folder-then-file', 'keep', 'new']); // drop/ went whole
  });
});

describe('listTreeInSlices', () => {
  it('lists what listTree lists, in the same order', async () => {
    const dir = tempDir('in-place-');
    for (const path of ['a/b/c', 'a/b/d', 'a/e', 'f', 'g/h/i/j', 'g/k']) put(join(dir, path), path);
    mkdirSync(join(dir, 'empty'));
    const listing = await listTreeInSlices(dir);
    expect(listing).toEqual(listTree(dir));
    expect(listing.files.sort()).toEqual(['a/b/c', 'a/b/d', 'a/e', 'f', 'g/h/i/j', 'g/k']);
    expect(listing.folders.indexOf('g/h/i')).toBeLessThan(listing.folders.indexOf('g/h'));
    expect(listing.folders).toContain('empty');
  });

  it('passes over the entries it is told to, and only those; a folder that holds one is not listed', async () => {
    const dir = tempDir('in-place-');
    for (const path of ['a/b/c', 'a/e', 'g/h/i', 'g/k', 'a-b/x', 'l/kept', 'l/m', 'n/o/kept']) put(join(dir, path), path);
    const folders = new Set(['a/b', 'g', 'a-b/x']);
    const files = new Set(['l/kept', 'n/o/kept', 'a/b']);
    const passOver = { passesOver: (folder: string, name: string, isFolder: boolean) => (isFolder ? folders : files).has(folder + name) };
    const listing = await listTreeInSlices(dir, passOver);
    // a-b/x is a file and a/b a folder: each is passed over only as what it is
    expect(listing.files.sort()).toEqual(['a-b/x', 'a/e', 'l/m']);
    // a, l, n/o and n hold what was passed over, and stay
    expect(listing.folders.sort()).toEqual(['a-b']);
  });
});

describe('pruneFolder', () => {
  it('removes every file not kept, and folders left empty, never the root', () => {
    const dir = tempDir('in-place-');
    for (const path of ['keep/a', 'keep/b', 'drop/c', 'drop/deeper/d', 'e']) put(join(dir, path), path);
    symlinkSync('/nonexistent', join(dir, 'keep', 'dangling'));
    expect(pruneFolder(dir, new Set(['keep/a', 'e']))).toBe(4);
    expect(filesUnder(dir).sort()).toEqual(['e', 'keep/a']);
    expect(pruneFolder(dir, new Set())).toBe(2);
    expect(filesUnder(dir)).toEqual([]);
  });
});

/** A tree: relative path → text. Names from a small alphabet so that files and folders collide across trees. */
const tree = fc.dictionary(
  fc.array(fc.constantFrom('a', 'b', 'c', 'index.html'), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
  fc.constantFrom('', 'x', 'y', 'xy', 'page'),
  { maxKeys: 12 },
);

/** The tree with no path that is also a folder of another (a real folder cannot hold both). */
const consistent = (files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).filter(([path]) => !Object.keys(files).some((other) => other.startsWith(`${path}/`))));

describe('setAsideKept', () => {
  /** What a folder holds: its files with their bytes, and its folders. */
  const held = (dir: string) => ({
    files: Object.fromEntries(filesUnder(dir).map((path) => [path, readFileSync(join(dir, path), 'utf8')])),
    folders: (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((d) => d.isDirectory()).map((d) => join(d.parentPath, d.name).slice(dir.length)).sort(),
  });

  it('leaves pruneListed the prune of the whole listing, for any keep set that holds what was set aside (property)', () => {
    fc.assert(
      fc.property(tree, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), (raw, kept, early) => {
        const files = consistent(raw);
        const paths = Object.keys(files);
        const keep = new Set([...paths.filter((_, i) => kept[i]), 'placed/after/the-listing']);
        const aside = new Set([...keep].filter((_, i) => early[i]));
        const [whole, left] = [tempDir('in-place-aside-'), tempDir('in-place-aside-')];
        for (const dir of [whole, left]) for (const [path, text] of Object.entries(files)) put(join(dir, path), text);
        const removed = pruneListed(whole, listTree(whole), keep);
        expect(pruneListed(left, runToEnd(setAsideKept(listTree(left), aside)), keep)).toBe(removed);
        expect(held(left)).toEqual(held(whole));
      }),
      { numRuns: 150 },
    );
  });

  it('leaves out the kept files and every folder that holds one', () => {
    const listing = { files: ['a/b/kept', 'a/b/gone', 'a/c/gone', 'd/kept', 'e'], folders: ['a/b', 'a/c', 'a', 'd', 'f'] };
    expect(runToEnd(setAsideKept(listing, new Set(['a/b/kept', 'd/kept'])))).toEqual({ files: ['a/b/gone', 'a/c/gone', 'e'], folders: ['a/c', 'f'] });
  });
});

describe('an update in place over any folder', () => {
  it('ends with exactly the wanted files and bytes, and rewrites none that already held them (property)', () => {
    fc.assert(
      fc.property(tree, tree, fc.integer({ min: 0, max: 2 ** 16 }), fc.option(fc.nat({ max: 12 })), (beforeRaw, wantedRaw, seed, listedAfter) => {
        const before = consistent(beforeRaw);
        const wanted = consistent(wantedRaw);
        const dir = tempDir('in-place-prop-');
        for (const [path, text] of Object.entries(before)) put(join(dir, path), text);
        // the wanted files arrive in some order, each written, linked or moved in
        const order = Object.entries(wanted).sort(([a], [b]) => ((a.length * 31 + seed) % 7) - ((b.length * 31 + seed) % 7) || a.localeCompare(b));
        const sources = tempDir('in-place-src-');
        let written = 0;
        // Pruned by a walk at the end, or from a listing made after some of the files arrived (the build lists its
        // folder while the search index is still being written).
        let listing: TreeListing | undefined = listedAfter === 0 ? listTree(dir) : undefined;
        order.forEach(([path, text], i) => {
          if (listedAfter !== null && i === listedAfter && i > 0) listing = listTree(dir);
          const target = join(dir, path);
          const source = join(sources, String(i));
          if (i % 3 === 0) written += Number(writeIfChanged(target, text));
          else if (i % 3 === 1) {
            put(source, text);
            written += Number(moveIfChanged(source, target));
          } else {
            put(source, text);
            written += Number(linkIfChanged(source, target).changed);
          }
        });
        if (listedAfter !== null) listing ??= listTree(dir);
        if (listing) pruneListed(dir, listing, new Set(Object.keys(wanted)));
        else pruneFolder(dir, new Set(Object.keys(wanted)));
        const after = Object.fromEntries(filesUnder(dir).map((path) => [path, readFileSync(join(dir, path), 'utf8')]));
        expect(after).toEqual(wanted);
        // and no folder is left empty
        const folders = (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((d) => d.isDirectory());
        expect(folders.filter((d) => readdirSync(join(d.parentPath, d.name)).length === 0).map((d) => d.name)).toEqual([]);
        // a file that held its bytes already is left; every other is written
        const unchanged = order.filter(([path, text]) => before[path] === text).length;
        expect(written).toBe(order.length - unchanged);
      }),
      { numRuns: 150 },
    );
  });
});
