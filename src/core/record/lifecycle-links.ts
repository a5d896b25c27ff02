/**
 * Which records correct or supersede which (DECISIONS 16), worked out once for a whole archive: the public index
 * lists `superseded_by` from it and the site links both ways ("corrected by", "corrects", "superseded by"). One
 * pass over the records, so a build computes it once, never per page.
 *
 * Two sources: a correction's `extensions.record_chain.corrects.record_id` (intake writes it), and the ids of
 * archive records that a superseded record's superseded_reason names (how contributors' records say it).
 */
import { correctionOf } from './record-chain-fields.ts';

export interface LinkedRecord {
  id: string;
  record: Readonly<Record<string, unknown>>;
}

export interface LifecycleLinks {
  /** Correction id → the id of the archive record it corrects (when that record exists). */
  corrects: Map<string, string>;
  /** Record id → ids of the corrections that correct it, in archive order. */
  correctedBy: Map<string, string[]>;
  /** Superseded record id → ids of the records that supersede it: its corrections and the ids its reason names. */
  supersededBy: Map<string, string[]>;
  /** The reverse of supersededBy. */
  supersedes: Map<string, string[]>;
}

const TOKEN = /[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]|[A-Za-z0-9]/g;

/** Ids of archive records that a free text names as whole tokens, in order of appearance, without `self`. */
export function idsNamedIn(text: string, ids: ReadonlySet<string>, self?: string): string[] {
  const found: string[] = [];
  for (const [token] of text.matchAll(TOKEN)) {
    // A sentence may end right after an id ("…by echo-x."): the token pattern already drops a trailing dot.
    if (token !== self && ids.has(token) && !found.includes(token)) found.push(token);
  }
  return found;
}

/** Adds `value` to the list of `key` unless it is there already. */
export function pushUnique(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

/** Which records correct or supersede which; each list follows the order of `records` (the index passes archive order, the record pages newest first). */
export function lifecycleLinks(records: readonly LinkedRecord[]): LifecycleLinks {
  const ids = new Set(records.map((r) => r.id));
  const superseded = new Set(records.filter((r) => r.record.archive_status === 'superseded').map((r) => r.id));
  const links: LifecycleLinks = { corrects: new Map(), correctedBy: new Map(), supersededBy: new Map(), supersedes: new Map() };
  for (const { id, record } of records) {
    const target = correctionOf(record as Record<string, unknown>)?.record_id;
    if (target !== undefined && target !== id && ids.has(target)) {
      links.corrects.set(id, target);
      pushUnique(links.correctedBy, target, id);
      if (superseded.has(target)) {
        pushUnique(links.supersededBy, target, id);
        pushUnique(links.supersedes, id, target);
      }
    }
    if (superseded.has(id) && typeof record.superseded_reason === 'string') {
      for (const newer of idsNamedIn(record.superseded_reason, ids, id)) {
        pushUnique(links.supersededBy, id, newer);
        pushUnique(links.supersedes, newer, id);
      }
    }
  }
  return links;
}
