/**
 * The archive's transparency log: every published version of every record is a leaf, appended, never removed.
 *
 * Where it lives between builds: in the archive itself, in the hidden folder `<archive root>/.tlog/` (the validator
 * ignores hidden entries), committed with the records:
 *
 *   .tlog/entries.jsonl     one leaf entry per line, in leaf order: the exact bytes that are hashed as the leaf
 *   .tlog/tree-head.json    {"tree_size", "root_hash"} that `npm run log:append` last wrote, so that a hand edit of
 *                          entries.jsonl that changes or removes a leaf fails the build
 *   .tlog/versions/<sha256>.json   the exact bytes of earlier versions of records, kept when a new version is logged
 *
 * A leaf entry is the RFC 8785 (JCS) form of {"id", "index", "sha256"}: the record id, the leaf's position, and the
 * SHA-256 of the record file's exact bytes. Only `npm run log:append` writes the folder; the build reads it and
 * derives the tree, the tiles and the checkpoint from it, so the same repository state gives the same tree.
 */
import { canonicalJson } from '../canonical/jcs.ts';
import { MerkleLevels } from './merkle.ts';

export const LOG_DIR = '.tlog';
export const ENTRIES_FILE = 'entries.jsonl';
export const TREE_HEAD_FILE = 'tree-head.json';
export const VERSIONS_DIR = 'versions';

const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface LogLeaf {
  id: string;
  index: number;
  sha256: string;
}

export interface TreeHead {
  tree_size: number;
  root_hash: string;
}

/** A problem with the log's committed state or with what the archive would do to it; the message names the record. */
export class LogStateError extends Error {
  override name = 'LogStateError';
  readonly hint: string;
  constructor(message: string, hint: string) {
    super(message);
    this.hint = hint;
  }
}

export function leafEntry(leaf: LogLeaf): string {
  return canonicalJson({ id: leaf.id, index: leaf.index, sha256: leaf.sha256 });
}

export function leafEntryBytes(leaf: LogLeaf): Uint8Array {
  return Buffer.from(leafEntry(leaf), 'utf8');
}

/** Reads one leaf entry; undefined unless it is exactly the canonical entry of a well-formed leaf. */
export function parseLeafEntry(text: string): LogLeaf | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as Partial<LogLeaf> | null;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  if (typeof v.id !== 'string' || v.id === '' || !Number.isSafeInteger(v.index) || (v.index as number) < 0 || typeof v.sha256 !== 'string' || !SHA256_HEX.test(v.sha256)) return undefined;
  const leaf = { id: v.id, index: v.index as number, sha256: v.sha256 };
  return leafEntry(leaf) === text ? leaf : undefined;
}

/** Parses entries.jsonl; every line must be a canonical entry whose index is its line number (from 0). */
export function parseEntriesFile(text: string, where = `${LOG_DIR}/${ENTRIES_FILE}`): LogLeaf[] {
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new LogStateError(`${where} does not end with a newline: it was cut short or edited by hand`, 'Restore it from git (git checkout -- <archive>/.tlog/); after an interrupted log:append, running npm run log:append again cuts the part past the tree head.');
  const lines = text.slice(0, -1).split('\n');
  return lines.map((line, i) => {
    const leaf = parseLeafEntry(line);
    if (!leaf) throw new LogStateError(`${where}:${i + 1} is not a leaf entry (canonical JSON {"id","index","sha256"})`, 'Only npm run log:append writes this file; restore it from git.');
    if (leaf.index !== i) throw new LogStateError(`${where}:${i + 1} says it is leaf ${leaf.index}, but it is leaf ${i}: a leaf was inserted, removed or moved`, 'Only npm run log:append writes this file; restore it from git.');
    return leaf;
  });
}

export function entriesFileText(leaves: readonly LogLeaf[]): string {
  return leaves.map((l) => leafEntry(l) + '\n').join('');
}

export function treeOf(leaves: readonly LogLeaf[]): MerkleLevels {
  const tree = new MerkleLevels();
  for (const leaf of leaves) tree.appendEntry(leafEntryBytes(leaf));
  return tree;
}

export function treeHeadOf(tree: MerkleLevels): TreeHead {
  return { tree_size: tree.size, root_hash: Buffer.from(tree.root()).toString('base64') };
}

export function parseTreeHead(text: string): TreeHead {
  let value: Partial<TreeHead>;
  try {
    value = JSON.parse(text) as Partial<TreeHead>;
  } catch {
    throw new LogStateError(`${LOG_DIR}/${TREE_HEAD_FILE} is not JSON`, 'Restore it from git.');
  }
  if (!Number.isSafeInteger(value?.tree_size) || typeof value.root_hash !== 'string') throw new LogStateError(`${LOG_DIR}/${TREE_HEAD_FILE} is not {"tree_size", "root_hash"}`, 'Restore it from git.');
  return { tree_size: value.tree_size as number, root_hash: value.root_hash };
}

/**
 * The entries must be exactly the tree that log:append recorded: fewer leaves, or a leaf changed, would rewrite
 * published history; more leaves were added by hand.
 */
export function checkTreeHead(leaves: readonly LogLeaf[], tree: MerkleLevels, head: TreeHead): void {
  const hint = 'The log is append-only and only npm run log:append writes it: restore <archive>/.tlog/ from git (git checkout -- <archive>/.tlog/), then run npm run log:append.';
  if (tree.size < head.tree_size) {
    throw new LogStateError(`the log has ${tree.size} leaves, but ${head.tree_size} were recorded: leaves ${tree.size}…${head.tree_size - 1} were dropped from ${LOG_DIR}/${ENTRIES_FILE}`, hint);
  }
  if (tree.size > head.tree_size) {
    const added = leaves.slice(head.tree_size).map((l) => l.id);
    throw new LogStateError(
      `${LOG_DIR}/${ENTRIES_FILE} has ${tree.size - head.tree_size} leaves that log:append did not record (${added.slice(0, 5).join(', ')}${added.length > 5 ? ', …' : ''})`,
      `${hint} If a log:append was interrupted (killed, the disk full), running npm run log:append again cuts those unrecorded leaves and appends them again.`,
    );
  }
  const root = Buffer.from(tree.root()).toString('base64');
  if (root !== head.root_hash) {
    throw new LogStateError(`${LOG_DIR}/${ENTRIES_FILE} no longer hashes to the recorded tree head (size ${head.tree_size}, root ${head.root_hash}; now ${root}): a published leaf was rewritten`, hint);
  }
}

/** What the log says about one record. */
export interface RecordLogState {
  /** The leaf of the record's current bytes, or null when they are not logged yet. */
  current: LogLeaf | null;
  /** Every leaf of this record id, oldest first (the current one included). */
  versions: LogLeaf[];
}

export interface PendingLeaf {
  id: string;
  sha256: string;
  /** 'new': the id has no leaf yet; 'version': the bytes differ from the id's latest leaf. */
  kind: 'new' | 'version';
  /** The archive path of the record (for messages and for finding earlier bytes). */
  path: string;
}

export interface Reconciled {
  byId: Map<string, RecordLogState>;
  pending: PendingLeaf[];
}

/**
 * Compares the archive with the log. A record id the log has but the archive lacks is a dropped record: an error
 * naming it (a published record is withdrawn by a new version with another status, never by deleting its file).
 * Records the log does not have at their current bytes are pending (archive-path order, as `records` is given).
 */
export function reconcile(leaves: readonly LogLeaf[], records: ReadonlyArray<{ id: string; path: string; sha256: string }>): Reconciled {
  const versions = new Map<string, LogLeaf[]>();
  for (const leaf of leaves) {
    const list = versions.get(leaf.id);
    if (list) list.push(leaf);
    else versions.set(leaf.id, [leaf]);
  }
  const inArchive = new Set(records.map((r) => r.id));
  const dropped = [...versions.keys()].filter((id) => !inArchive.has(id));
  if (dropped.length > 0) {
    throw new LogStateError(
      `${dropped.length === 1 ? 'the record' : `${dropped.length} records`} ${dropped.slice(0, 10).join(', ')}${dropped.length > 10 ? ', …' : ''} ${dropped.length === 1 ? 'is' : 'are'} in the transparency log but no longer in the archive: publishing without ${dropped.length === 1 ? 'it' : 'them'} would drop a published leaf`,
      'A published record stays: restore its file (git checkout -- <path>). To withdraw it, publish a new version with another status, and run npm run log:append.',
    );
  }
  const byId = new Map<string, RecordLogState>();
  const pending: PendingLeaf[] = [];
  for (const r of records) {
    const list = versions.get(r.id) ?? [];
    const latest = list[list.length - 1];
    const current = latest && latest.sha256 === r.sha256 ? latest : null;
    byId.set(r.id, { current, versions: list });
    if (!current) pending.push({ id: r.id, sha256: r.sha256, kind: latest ? 'version' : 'new', path: r.path });
  }
  return { byId, pending };
}

/** The leaves that append `pending` to a log of `size` leaves. */
export function appendLeaves(size: number, pending: readonly PendingLeaf[]): LogLeaf[] {
  return pending.map((p, i) => ({ id: p.id, index: size + i, sha256: p.sha256 }));
}
