/**
 * Reading and writing the log's committed state under `<archive root>/.tlog/` (see archive-log.ts). Writes are
 * append-only for entries.jsonl and atomic (temporary file, then rename) for tree-head.json.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** Appends leaves (and earlier versions' bytes) to the archive's log, creating it when missing; returns the new head. */
export function appendToLog(archiveRoot: string, state: LogState | undefined, added: readonly LogLeaf[], versions: ReadonlyMap<string, Uint8Array>): TreeHead {
  const dir = logDir(archiveRoot);
  mkdirSync(dir, { recursive: true });
  if (versions.size > 0) mkdirSync(join(dir, VERSIONS_DIR), { recursive: true });
  for (const [sha256, bytes] of versions) {
    const path = join(dir, VERSIONS_DIR, `${sha256}.json`);
    if (!existsSync(path)) writeFileSync(path, bytes, { flag: 'wx' });
  }
  const tree = state?.tree ?? new MerkleLevels();
  for (const leaf of added) tree.appendEntry(leafEntryBytes(leaf));
  const head = treeHeadOf(tree);
  appendFileSync(join(dir, ENTRIES_FILE), entriesFileText(added));
  const tmp = join(dir, `.${TREE_HEAD_FILE}.tmp`);
  writeFileSync(tmp, JSON.stringify(head, null, 2) + '\n');
  renameSync(tmp, join(dir, TREE_HEAD_FILE));
  return head;
}
