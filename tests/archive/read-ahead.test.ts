/**
 * An archive's files read on two threads (src/core/archive/read-ahead.ts, read-ahead-chunk.ts): each file as the
 * validation reads it on its own (bytes, identity, size, record, reading's findings), with its hash; the thread does
 * read some of them; a file the thread cannot read whole is read by the caller, with the errors it always gives.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { archiveFileOf, readArchiveFile, type LoadedFile } from '../../src/core/archive/load-archive.ts';
import { readChunk } from '../../src/core/archive/read-ahead-chunk.ts';
import { openArchiveReader } from '../../src/core/archive/read-ahead.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { MAX_RECORD_BYTES } from '../../src/core/rules/file/too-large.ts';
import { tempArchives, type FileContent } from '../helpers/archive.ts';
import { FIXTURES_DIR } from '../helpers/records.ts';

const makeArchive = tempArchives();
const valid = readFileSync(join(FIXTURES_DIR, 'records/valid-echo.json'));

/** 300 files, ten chunks' worth: valid records of every length, and the files strict reading has findings for. */
function manyFiles(): Record<string, FileContent> {
  const files: Record<string, FileContent> = {};
  for (let i = 0; i < 300; i++) {
    const path = `2026/echo-2026-05-01-${String(i + 1).padStart(6, '0')}.json`;
    if (i % 50 === 7) files[path] = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), valid]); // a byte-order mark
    else if (i % 50 === 19) files[path] = Buffer.from([0x7b, 0xff, 0x7d]); // not UTF-8
    else if (i % 50 === 23) files[path] = '[1, 2]\n'; // not an object
    else if (i % 50 === 31) files[path] = ''; // empty
    else files[path] = Buffer.concat([valid.subarray(0, -2), Buffer.from(`${' '.repeat(i)}}\n`)]);
  }
  return files;
}

/** What the validation reads of a file (the record and findings are parsed when asked for). */
function seen(file: LoadedFile) {
  return { path: file.path, id: file.id, size: file.size, bytes: file.bytes, identity: file.identity, record: file.record, readFindings: file.readFindings };
}

describe('openArchiveReader', () => {
  it('gives each file as it is read in turn, with its hash, the thread reading some of them', async () => {
    const root = makeArchive(manyFiles());
    const paths = Object.keys(manyFiles()).sort();
    const reader = openArchiveReader(root, paths, { aheadFrom: 1 });
    try {
      const got: LoadedFile[] = [reader.read(paths[0]!)];
      await sleep(1000); // the thread starts, and reads its window ahead
      for (const path of paths.slice(1)) got.push(reader.read(path));
      expect(got.map(seen)).toEqual(paths.map((path) => seen(readArchiveFile(root, path))));
      for (const file of got) expect(file.sha256).toBe(sha256Hex(file.bytes!));
      expect(reader.byThread).toBeGreaterThan(0);
      expect(reader.byThread).toBeLessThan(paths.length);
      // The findings of strict reading are there for the files that have them.
      expect(got.filter((f) => f.readFindings!.length > 0).map((f) => f.readFindings![0]!.rule).sort()).toEqual([
        ...Array<string>(6).fill('json/bom'),
        ...Array<string>(6).fill('json/encoding'),
        ...Array<string>(6).fill('json/not-object'),
        ...Array<string>(6).fill('json/syntax'),
      ].sort());
    } finally {
      reader.close();
    }
  });

  it('with transient bytes, gives the same files from a ring shared with the thread, each whole until the chunk after the next', async () => {
    const root = makeArchive(manyFiles());
    const paths = Object.keys(manyFiles()).sort();
    const reader = openArchiveReader(root, paths, { aheadFrom: 1, transient: true });
    try {
      const expected = paths.map((path) => seen(readArchiveFile(root, path)));
      let held: { file: LoadedFile; bytes: Buffer } | undefined;
      for (const [i, path] of paths.entries()) {
        if (i === 1) await sleep(1000); // the thread starts, and reads its window ahead into the ring
        const file = reader.read(path);
        // As a streaming validation does: judged (parsed) while it is the file in hand, then let go.
        expect(seen(file)).toEqual(expected[i]);
        expect(file.sha256).toBe(sha256Hex(file.bytes!));
        // The last file of a chunk, still whole once the validation is in the next chunk and the thread has had time
        // to fill every slot it may (the ring's one slot of margin).
        if (i % 32 === 31) held = { file, bytes: Buffer.from(file.bytes!) };
        if (held && i % 32 === 30) {
          expect(held.file.bytes!.equals(held.bytes)).toBe(true);
          await sleep(50);
        }
      }
      expect(reader.byThread).toBeGreaterThan(0);
    } finally {
      reader.close();
    }
    // The files the thread read came in the ring, as those read here do: nothing moved per chunk.
    const again = openArchiveReader(root, paths, { aheadFrom: 1, transient: true });
    try {
      again.read(paths[0]!);
      await sleep(500);
      const shared = paths.slice(1, 100).map((path) => again.read(path).bytes!.buffer);
      expect(again.byThread).toBeGreaterThan(0);
      expect(shared.filter((buffer) => !(buffer instanceof SharedArrayBuffer))).toEqual([]);
    } finally {
      again.close();
    }
  });

  it('reads on one thread below its threshold, and a file out of order or after closing as the caller asks', () => {
    const root = makeArchive(manyFiles());
    const paths = Object.keys(manyFiles()).sort();
    const few = openArchiveReader(root, paths);
    expect(few.read(paths[5]!).bytes).toEqual(readArchiveFile(root, paths[5]!).bytes);
    expect(few.byThread).toBe(0);
    const reader = openArchiveReader(root, paths, { aheadFrom: 1 });
    expect(seen(reader.read(paths[9]!))).toEqual(seen(readArchiveFile(root, paths[9]!)));
    expect(seen(reader.read(paths[0]!))).toEqual(seen(readArchiveFile(root, paths[0]!)));
    reader.close();
    for (const path of paths.slice(1, 80)) expect(reader.read(path).bytes).toEqual(readFileSync(join(root, path)));
  });

  it('leaves to the caller a file gone since the listing, or too large: the same error and the same size as read in turn', async () => {
    const files = manyFiles();
    const paths = Object.keys(files).sort();
    const root = makeArchive(files);
    const gone = paths[200]!;
    const large = paths[201]!;
    const reader = openArchiveReader(root, paths, { aheadFrom: 1 });
    try {
      rmSync(join(root, gone));
      writeFileSync(join(root, large), Buffer.alloc(MAX_RECORD_BYTES + 1, 0x20));
      await sleep(300);
      for (const path of paths.slice(0, 200)) reader.read(path);
      expect(() => reader.read(gone)).toThrow(/ENOENT/);
      const tooLarge = reader.read(large);
      expect(tooLarge.size).toBe(MAX_RECORD_BYTES + 1);
      expect(tooLarge.bytes).toBeUndefined();
      expect(reader.read(paths[202]!).bytes).toEqual(readFileSync(join(root, paths[202]!)));
    } finally {
      reader.close();
    }
  });
});

describe('readChunk', () => {
  it('reads a chunk into one buffer, leaving to the caller what is not a whole regular file within the limit', () => {
    const root = makeArchive({ 'a.json': '{"a":1}\n', 'c.json': '{"c":"ccc"}\n', 'big.json': 'x'.repeat(100) });
    mkdirSync(join(root, 'dir.json'));
    const chunk = readChunk(root, ['a.json', 'missing.json', 'dir.json', 'big.json', 'c.json'], 0, 8, 50);
    const [a, missing, dir, big, c] = chunk.files;
    expect([missing, dir, big]).toEqual([null, null, null]);
    for (const [entry, text] of [[a, '{"a":1}\n'], [c, '{"c":"ccc"}\n']] as const) {
      const [offset, length, identity, sha256] = entry!;
      expect(Buffer.from(chunk.buffer!, offset, length).toString()).toBe(text);
      expect(sha256).toBe(sha256Hex(text));
      expect(identity).toMatch(/^\d+:\d+$/);
    }
    // Chunk 1 of chunks of two: the third and fourth paths.
    expect(readChunk(root, ['x', 'y', 'a.json', 'c.json'], 1, 2, 50).files.map((f) => f && f[1])).toEqual([8, 12]);
  });

  it('reads a chunk into its slot of a ring when it fits (chunk i into slot i mod slots), else into a buffer of its own', () => {
    const root = makeArchive({ 'a.json': '{"a":1}\n', 'c.json': '{"c":"ccc"}\n' });
    const ring = { buffer: new SharedArrayBuffer(3 * 32), slots: 3, slotBytes: 32 };
    const paths = ['x', 'y', 'a.json', 'c.json'];
    // Chunk 1 of chunks of two (the third and fourth paths) goes in slot 1 of three, at byte 32.
    const inRing = readChunk(root, paths, 1, 2, 50, ring);
    expect(inRing.buffer).toBeUndefined();
    const [a, c] = inRing.files;
    expect(a![0]).toBe(32);
    expect(c![0]).toBe(32 + 8 + 1); // after a's 8 bytes and its spare byte
    expect(Buffer.from(ring.buffer, a![0], a![1]).toString()).toBe('{"a":1}\n');
    expect(Buffer.from(ring.buffer, c![0], c![1]).toString()).toBe('{"c":"ccc"}\n');
    expect(c![3]).toBe(sha256Hex('{"c":"ccc"}\n'));
    // 8 + 1 + 12 + 1 bytes do not fit in a slot of 16: the chunk gets a buffer of its own, the ring is left alone.
    const small = { buffer: new SharedArrayBuffer(3 * 16), slots: 3, slotBytes: 16 };
    const own = readChunk(root, paths, 1, 2, 50, small);
    expect(own.buffer).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(own.buffer!, own.files[1]![0], own.files[1]![1]).toString()).toBe('{"c":"ccc"}\n');
    expect(Buffer.from(small.buffer).every((byte) => byte === 0)).toBe(true);
  });
});

describe('archiveFileOf', () => {
  it('parses the bytes when the record or the findings are first asked for, not when the file is read, and once', () => {
    const bytes = Buffer.from('{"a":1}\n');
    const file = archiveFileOf('a.json', bytes, '1:2', sha256Hex(bytes));
    bytes.write('{"b":2}'); // what is parsed is the bytes as they are when first asked for: nothing was parsed yet
    expect(file.record).toEqual({ b: 2 });
    bytes.write('{"c":3}');
    expect(file.record).toEqual({ b: 2 });
    expect(file.readFindings).toEqual([]);
    // Its fields, and the record and findings as getters of its kind (not accessors defined on each file).
    expect(Object.keys(file).sort()).toEqual(['bytes', 'id', 'identity', 'path', 'sha256', 'size']);
    expect('record' in file && 'readFindings' in file).toBe(true);
    const notJson = archiveFileOf('b.json', Buffer.from('{'), '1:3');
    expect(notJson.record).toBeUndefined();
    expect(notJson.readFindings!.map((f) => f.rule)).toEqual(['json/syntax']);
  });
});
