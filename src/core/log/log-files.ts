/**
 * Reading and writing the log's committed state under `<archive root>/.tlog/` (see archive-log.ts). Writes are
 * append-only for entries.jsonl and atomic (temporary file, flushed, then rename) for tree-head.json and the earlier
 * versions' bytes. tree-head.json is the commit point: an append interrupted before it is renamed into place (killed,
 * the disk full) can leave leaves, or part of one, past the recorded head in entries.jsonl; readers refuse such a
 * log, and the next `log:append` cuts that uncommitted tail (repairInterruptedAppend) before appending.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sha256Hex } from '../crypto/sha256.ts';
import {
  checkTreeHead, ENTRIES_FILE, entriesFileText, leafEntryBytes, LOG_DIR, LogStateError, parseEntriesFile, parseTreeHead, TREE_HEAD_FILE,
  treeHeadOf, VERSIONS_DIR, type LogLeaf, type TreeHead,
} from './archive-log.ts';
import { MerkleLevels } from './merkle.ts';

export interface LogState {
  dir: string;
  leaves: LogLeaf[];
  /** The exact bytes of each leaf entry (the lines of entries.jsonl). */
  entries: Uint8Array[];
  tree: MerkleLevels;
  head: TreeHead;
}

export function logDir(archiveRoot: string): string {
  return join(archiveRoot, LOG_DIR);
}

/** The committed log of the archive at `archiveRoot`, checked against its tree head; undefined when it has no log. */
export function readLogState(archiveRoot: string): LogState | undefined {
  const dir = logDir(archiveRoot);
  if (!existsSync(dir)) return undefined;
  const entriesPath = join(dir, ENTRIES_FILE);
  const headPath = join(dir, TREE_HEAD_FILE);
  if (!existsSync(entriesPath) || !existsSync(headPath)) {
    throw new LogStateError(`${dir} lacks ${existsSync(entriesPath) ? TREE_HEAD_FILE : ENTRIES_FILE}`, 'Restore the log folder from git, or remove it and start a new log with npm run log:append.');
  }
  const text = readFileSync(entriesPath, 'utf8');
  const leaves = parseEntriesFile(text);
  // Every line was checked to be its leaf's canonical entry: hash the lines as they are (no second serialisation).
  const entries = text === '' ? [] : text.slice(0, -1).split('\n').map((line) => Buffer.from(line, 'utf8'));
  const tree = new MerkleLevels();
  for (const entry of entries) tree.appendEntry(entry);
  const head = parseTreeHead(readFileSync(headPath, 'utf8'));
  checkTreeHead(leaves, tree, head);
  return { dir, leaves, entries, tree, head };
}

/** Writes `bytes` to `path` whole or not at all: a flushed temporary file beside it, renamed into place. */
function writeAtomic(path: string, bytes: string | Uint8Array): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const fd = openSync(tmp, 'w', 0o644);
    try {
      writeAll(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

function writeAll(fd: number, bytes: string | Uint8Array): void {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Cuts what an interrupted `log:append` wrote to entries.jsonl past the recorded tree head (whole leaves or part of
 * one), when the entries up to the head still hash to it; returns how many leaves' worth of lines (a partial line
 * counts as one) were cut, 0 when there was nothing to cut. A log that does not match its head before the cut is left
 * as it is: readLogState names the problem.
 */
export function repairInterruptedAppend(archiveRoot: string): number {
  const dir = logDir(archiveRoot);
  // Temporary files of an interrupted writeAtomic (never read: hidden, and not the names readers open).
  for (const d of [dir, join(dir, VERSIONS_DIR)]) {
    if (!existsSync(d)) continue;
    for (const name of readdirSync(d)) if (/^\..+\.\d+\.tmp$/.test(name)) rmSync(join(d, name), { force: true });
  }
  const entriesPath = join(dir, ENTRIES_FILE);
  const headPath = join(dir, TREE_HEAD_FILE);
  if (!existsSync(entriesPath) || !existsSync(headPath)) return 0;
  let head: TreeHead;
  try {
    head = parseTreeHead(readFileSync(headPath, 'utf8'));
  } catch {
    return 0;
  }
  const bytes = readFileSync(entriesPath);
  let end = 0;
  for (let n = 0; n < head.tree_size; n++) {
    const nl = bytes.indexOf(0x0a, end);
    if (nl < 0) return 0; // fewer leaves than recorded: not an interrupted append
    end = nl + 1;
  }
  if (end === bytes.length) return 0;
  const prefix = bytes.subarray(0, end).toString('utf8');
  try {
    const leaves = parseEntriesFile(prefix);
    const tree = new MerkleLevels();
    for (const line of prefix === '' ? [] : prefix.slice(0, -1).split('\n')) tree.appendEntry(Buffer.from(line, 'utf8'));
    checkTreeHead(leaves, tree, head);
  } catch {
    return 0;
  }
  const tail = bytes.subarray(end).toString('utf8');
  const fd = openSync(entriesPath, 'r+');
  try {
    ftruncateSync(fd, end);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tail.split('\n').filter((l) => l !== '').length;
}

/** Appends leaves (and earlier versions' bytes) to the archive's log, creating it when missing; returns the new head. */
export function appendToLog(archiveRoot: string, state: LogState | undefined, added: readonly LogLeaf[], versions: ReadonlyMap<string, Uint8Array>): TreeHead {
  const dir = logDir(archiveRoot);
  mkdirSync(dir, { recursive: true });
  if (versions.size > 0) mkdirSync(join(dir, VERSIONS_DIR), { recursive: true });
  for (const [sha256, bytes] of versions) {
    // Whole or absent (a copy cut short would be published as the record's earlier bytes).
    const path = join(dir, VERSIONS_DIR, `${sha256}.json`);
    if (!existsSync(path) || sha256Hex(readFileSync(path)) !== sha256) writeAtomic(path, bytes);
  }
  const tree = state?.tree ?? new MerkleLevels();
  for (const leaf of added) tree.appendEntry(leafEntryBytes(leaf));
  const head = treeHeadOf(tree);
  const fd = openSync(join(dir, ENTRIES_FILE), 'a', 0o644);
  try {
    writeAll(fd, entriesFileText(added));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // The commit point: until this rename, the leaves just written are past the recorded head (see the module comment).
  writeAtomic(join(dir, TREE_HEAD_FILE), JSON.stringify(head, null, 2) + '\n');
  fsyncDir(dir);
  return head;
}
