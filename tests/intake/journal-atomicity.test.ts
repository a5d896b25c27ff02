/**
 * Per-file atomicity of intake's writes (src/intake/journal.ts): each archive file is always either its old bytes or
 * its new bytes — new bytes go to a durable temporary file beside it and are renamed into place. Interrupted between
 * the temporary write and the rename, a reader finds the old bytes whole, the archive lists no half-written file,
 * and the next recovery puts the new bytes in place.
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listArchiveFiles } from '../../src/core/archive/list-files.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { commitWrites, INTAKE_JOURNAL_NAME, recoverJournal } from '../../src/intake/journal.ts';
import { tempDir } from '../helpers/temp-dir.ts';

class Crash extends Error {}

function archiveWith(files: Record<string, string>): string {
  const root = tempDir('echo-intake-atomic-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const OLD = JSON.stringify({ archive_status: 'accepted_echo', note: 'old '.repeat(2000) }, null, 2) + '\n';
const NEW = JSON.stringify({ archive_status: 'superseded', superseded_reason: 'by the correction', note: 'new '.repeat(3000) }, null, 2) + '\n';

describe('an intake write interrupted between its temporary file and the rename', () => {
  it('leaves the old bytes whole where a reader looks, and recovery puts the new bytes in place', () => {
    const root = archiveWith({ '2026/a.json': OLD });
    const seen: Array<{ target: string; temp: string }> = [];
    expect(() =>
      commitWrites(
        root,
        [
          { path: '2026/a.json', text: NEW, before: sha256Hex(OLD) },
          { path: '2026/b.json', text: '{}\n', before: null },
        ],
        {
          beforeRename: (i, temp) => {
            seen.push({ target: readFileSync(join(root, i === 0 ? '2026/a.json' : '2026/b.json'), 'utf8'), temp: readFileSync(temp, 'utf8') });
            throw new Crash('the process dies here');
          },
        },
      ),
    ).toThrow(Crash);

    // At the moment of the crash: the file still held all of its old bytes; the new ones were whole, beside it.
    expect(seen).toEqual([{ target: OLD, temp: NEW }]);
    // After it: still the old bytes, nothing of the second file, the journal that says what to finish, and the
    // temporary file hidden from the archive's listing.
    expect(readFileSync(join(root, '2026/a.json'), 'utf8')).toBe(OLD);
    expect(existsSync(join(root, '2026/b.json'))).toBe(false);
    expect(existsSync(join(root, INTAKE_JOURNAL_NAME))).toBe(true);
    expect(listArchiveFiles(root)).toEqual(['2026/a.json']);

    expect(recoverJournal(root)).toEqual(['2026/a.json', '2026/b.json']);
    expect(readFileSync(join(root, '2026/a.json'), 'utf8')).toBe(NEW);
    expect(readFileSync(join(root, '2026/b.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(root, INTAKE_JOURNAL_NAME))).toBe(false);
  });

  it('writes each file only by rename: at every step a reader sees the old bytes or the new, never a mix or nothing', () => {
    const root = archiveWith({ '2026/a.json': OLD, '2026/c.json': OLD });
    const observed: string[] = [];
    const look = () => observed.push(...['2026/a.json', '2026/c.json'].map((p) => readFileSync(join(root, p), 'utf8')));
    commitWrites(
      root,
      [
        { path: '2026/a.json', text: NEW, before: sha256Hex(OLD) },
        { path: '2026/c.json', text: NEW, before: sha256Hex(OLD) },
      ],
      { afterJournal: look, beforeRename: look, afterWrite: look },
    );
    look();
    expect(observed.length).toBe(12);
    for (const text of observed) expect([OLD, NEW]).toContain(text);
    // Before its own rename a file is still old; after it, new.
    expect(observed.slice(2, 4)).toEqual([OLD, OLD]); // before a's rename
    expect(observed.slice(4, 6)).toEqual([NEW, OLD]); // after a's rename
    expect(observed.slice(6, 8)).toEqual([NEW, OLD]); // before c's rename
    expect(observed.slice(-2)).toEqual([NEW, NEW]);
  });
});
