/**
 * Sequence numbers of conventional record names (`<year>/echo-YYYY-MM-DD-NNNNNN.json`, DECISIONS 1): the next
 * number is one more than the highest in the whole archive (every year, every folder; gaps are never filled, since a
 * missing number may be a record someone once linked to), and creating the next record is safe when several run at
 * once: a number is claimed by exclusively creating a hidden claim file for it (`open(…, 'wx')`), the archive is read
 * again while the claim is held, and the record file itself is created exclusively, so two runs never share a
 * number and no file is ever replaced. A run that finds a number claimed moves on to the next one.
 */
import { closeSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listArchiveFiles } from './list-files.ts';
import { highestSequence, recordPathFor, sequenceOf } from './paths.ts';

/** A claim older than this was left by a run that died; it is removed. */
const STALE_CLAIM_MS = 60_000;

function claimPath(root: string, sequence: number): string {
  return join(root, `.new-record-${String(sequence).padStart(6, '0')}.claim`);
}

function tryClaim(root: string, sequence: number): boolean {
  const path = claimPath(root, sequence);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(path, 'wx'));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age < STALE_CLAIM_MS) return false;
      try {
        unlinkSync(path);
      } catch {
        // another run removed it first
      }
    }
  }
  return false;
}

export interface CreatedRecord {
  /** Path from the archive root. */
  path: string;
  sequence: number;
}

/**
 * Creates the next record of the archive at `root` for `date`, with the text `textFor(path)` (it may depend on the
 * path, e.g. to validate the file as it will be named). Throws when `textFor` throws; nothing is left behind then.
 */
export function createNextRecord(root: string, date: string, textFor: (path: string) => string): CreatedRecord {
  let sequence = highestSequence(listArchiveFiles(root)) + 1;
  for (let attempts = 0; attempts < 1000; attempts++) {
    const claimed = sequence;
    if (!tryClaim(root, claimed)) {
      sequence++;
      continue;
    }
    try {
      // Read again under the claim: a run that held this number before us has written its record by now.
      const names = listArchiveFiles(root);
      if (names.some((n) => sequenceOf(n) === claimed)) {
        sequence = highestSequence(names) + 1;
        continue;
      }
      const path = recordPathFor(date, claimed);
      const text = textFor(path);
      mkdirSync(dirname(join(root, path)), { recursive: true });
      const fd = openSync(join(root, path), 'wx');
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return { path, sequence: claimed };
    } finally {
      unlinkSync(claimPath(root, claimed));
    }
  }
  throw new Error('could not claim a sequence number after 1000 attempts (are many runs creating records at once?)');
}
