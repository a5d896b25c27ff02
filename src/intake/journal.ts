/**
 * Writing several archive files as one step: all of them or none, even across a crash (DECISIONS 16: a correction
 * and the record it supersedes are written in the same accept).
 *
 * How: before any archive file is touched, the whole intent (every file's path, its new text and the SHA-256 of
 * the bytes it replaces) is written to a journal, `<root>/.intake-journal.json`, made durable (temporary file,
 * fsync, link to the final name, fsync of the folder). Then each file is written by temporary file, fsync and
 * rename, so a file is always either its old bytes or its new bytes. Then the journal is removed. A crash before
 * the journal exists leaves the archive as it was; a crash after it leaves a journal that the next intake run
 * rolls forward (recoverJournal), and until then the archive refuses to load (loadArchive names the journal), so
 * no build or validation ever sees half of an accept.
 *
 * The journal's name is also a lock: it is created with link(2), which fails when the name exists, so two accepts
 * cannot interleave their writes.
 */
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { INTAKE_JOURNAL_NAME } from '../core/archive/load-archive.ts';
import { sha256Hex } from '../core/crypto/sha256.ts';
import { isProcessAlive } from '../core/util/process-alive.ts';

export { INTAKE_JOURNAL_NAME };

export interface PlannedWrite {
  /** Path from the archive root. */
  path: string;
  /** The file's new text. */
  text: string;
  /** SHA-256 of the bytes the file holds now, or null when it must not exist yet. */
  before: string | null;
}

interface Journal {
  schema: 'echo-archive.intake-journal.v1';
  writes: PlannedWrite[];
}

/** Points where a test can stop the commit to simulate a crash (the process is gone from there on). */
export interface CommitHooks {
  /** After the journal is durable, before any archive file is written. */
  afterJournal?: () => void;
  /** When the i-th archive file's new bytes are durable in their temporary file beside it, before the rename. */
  beforeRename?: (i: number, temp: string) => void;
  /** After the i-th archive file (0-based) is in place. */
  afterWrite?: (i: number) => void;
}

export class JournalError extends Error {}

/** Flushes a file's or folder's data to disk (a folder: the names in it, after a rename or link). */
function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` to a new temporary file beside `target` and flushes it; returns the temporary path. */
function durableTemp(target: string, text: string): string {
  mkdirSync(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.intake-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx', mode: 0o644 });
    fsyncPath(temp);
  } catch (err) {
    // A disk that filled mid-write leaves no part-written file behind (a killed process's is removed by recoverJournal).
    rmSync(temp, { force: true });
    throw err;
  }
  return temp;
}

function currentSha(root: string, path: string): string | null {
  const file = join(root, path);
  return existsSync(file) ? sha256Hex(readFileSync(file)) : null;
}

function applyWrite(root: string, w: PlannedWrite, beforeRename?: (temp: string) => void): void {
  const target = join(root, w.path);
  const temp = durableTemp(target, w.text);
  beforeRename?.(temp);
  try {
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  fsyncPath(dirname(target));
}

/** Writes every planned file, all or none (see the module comment). Throws JournalError when a file changed meanwhile. */
export function commitWrites(root: string, writes: readonly PlannedWrite[], hooks: CommitHooks = {}): void {
  for (const w of writes) {
    if (currentSha(root, w.path) !== w.before) {
      throw new JournalError(`${w.path} changed while the accept was prepared; nothing was written, run the accept again`);
    }
  }
  const journalPath = join(root, INTAKE_JOURNAL_NAME);
  const journal: Journal = { schema: 'echo-archive.intake-journal.v1', writes: [...writes] };
  const temp = durableTemp(journalPath, JSON.stringify(journal));
  try {
    linkSync(temp, journalPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new JournalError(`another accept is running, or one was interrupted (${journalPath} exists): run \`npm run intake -- recover\``);
    }
    throw err;
  } finally {
    unlinkSync(temp);
  }
  fsyncPath(root);
  hooks.afterJournal?.();
  writes.forEach((w, i) => {
    applyWrite(root, w, hooks.beforeRename && ((temp) => hooks.beforeRename!(i, temp)));
    hooks.afterWrite?.(i);
  });
  rmSync(journalPath, { force: true });
  fsyncPath(root);
}


/** Temporary files an interrupted write left (hidden, so the archive never reads them) by a process now gone. */
function strayTemps(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) => {
    const m = /(?:^|[/\\])\.intake-(\d+)-[^/\\]*\.tmp$/.exec(p);
    return m !== null && Number(m[1]) !== process.pid && !isProcessAlive(Number(m[1]));
  });
}

/**
 * Finishes an interrupted commit: every file of the journal that does not yet have its new bytes gets them (a file
 * must still have the bytes the journal says it replaced, else nothing more is written and JournalError says why).
 * Removes the journal and stray temporary files. Returns the paths written now, or undefined when there was no journal.
 */
export function recoverJournal(root: string): string[] | undefined {
  for (const stray of strayTemps(root)) rmSync(join(root, stray), { force: true });
  const journalPath = join(root, INTAKE_JOURNAL_NAME);
  if (!existsSync(journalPath)) return undefined;
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(journalPath, 'utf8')) as Journal;
    if (journal.schema !== 'echo-archive.intake-journal.v1' || !Array.isArray(journal.writes)) throw new Error('not an intake journal');
  } catch (err) {
    throw new JournalError(`${journalPath} cannot be read (${(err as Error).message}); check the archive by hand and remove it`);
  }
  const pending = journal.writes.filter((w) => currentSha(root, w.path) !== sha256Hex(w.text));
  for (const w of pending) {
    if (currentSha(root, w.path) !== w.before) {
      throw new JournalError(`${w.path} was changed after an interrupted accept; the journal ${journalPath} was kept: check both files by hand`);
    }
  }
  for (const w of pending) applyWrite(root, w);
  unlinkSync(journalPath);
  fsyncPath(root);
  return pending.map((w) => w.path);
}
