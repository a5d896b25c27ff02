/**
 * Looking targets up in the public index (/api/public-index-schema.v1.json: one document with `records`, or a
 * manifest whose `shards` list the documents holding them), for the commands whose record names an archived record
 * by id and SHA-256 (guardian-retirement, classification-update). Read like readback reads it: shard bytes checked
 * against the manifest's sha256, raw records against the entry's sha256.
 */
import { sha256Hex } from '../core/crypto/sha256.ts';
import { parseStrictJson } from '../core/json/strict-parse.ts';
import { UsageError, type OptionSpec, type ParsedValues } from './cli.ts';
import { indexDocuments } from './index-documents.ts';
import { getOk, httpUrl, NetworkError, timeoutSeconds } from './net.ts';
import { resolveSiteUrl, siteBaseOf } from './commands/readback.ts';

export interface IndexedRecord {
  id: string;
  /** SHA-256 of the record file's exact bytes, as the index lists it. */
  sha256: string;
  /** Where its raw JSON is, absolute. */
  url: string;
  record_type: string | null;
}

export const SITE_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'site',
    type: 'string',
    value: 'URL',
    description: "look the target up in the public index of the site at URL (its /api/index.json); without it, give the target's id and SHA-256 and nothing is fetched",
  },
  { name: 'timeout', type: 'string', value: 'SECONDS', description: 'with --site: give up on a request after this long (default 30)' },
];

export function siteIndexUrl(values: ParsedValues): string | undefined {
  const site = values.site;
  if (typeof site !== 'string') return undefined;
  const base = httpUrl(site, 'site');
  return `${base.href.replace(/\/+$/, '')}/api/index.json`;
}

function entriesOf(doc: unknown, where: string, base: string): IndexedRecord[] {
  const records = (doc as { records?: unknown } | null)?.records;
  if (!Array.isArray(records)) throw new NetworkError(`${where} is not a public index: no records list`);
  const out: IndexedRecord[] = [];
  for (const e of records as Array<Record<string, unknown> | null>) {
    if (!e || typeof e.id !== 'string' || typeof e.sha256 !== 'string') continue;
    if (typeof e.url !== 'string') continue;
    out.push({ id: e.id, sha256: e.sha256, url: resolveSiteUrl(e.url, base), record_type: typeof e.record_type === 'string' ? e.record_type : null });
  }
  return out;
}

/** Every entry of the index that `wanted` accepts, in index (archive) order; with `first`, stops at the first. */
export async function findIndexed(indexUrl: string, seconds: number, wanted: (e: IndexedRecord) => boolean, first = false): Promise<IndexedRecord[]> {
  const base = siteBaseOf(indexUrl);
  const index = indexDocuments(await getOk(indexUrl, seconds), (url) => getOk(resolveSiteUrl(url, base), seconds));
  const found: IndexedRecord[] = [];
  for await (const { doc, body } of index.documents()) {
    found.push(...entriesOf(doc, index.sharded ? body.url : indexUrl, base).filter(wanted));
    if (first && found.length > 0) return found.slice(0, 1);
  }
  return found;
}

/** The raw archived record of an entry, its bytes checked against the entry's sha256; undefined when they differ. */
export async function readIndexed(entry: IndexedRecord, seconds: number): Promise<Record<string, unknown> | undefined> {
  const raw = await getOk(entry.url, seconds, 'application/json');
  if (sha256Hex(raw.bytes) !== entry.sha256) return undefined;
  const parsed = parseStrictJson(raw.bytes);
  return parsed.isObject ? (parsed.value as Record<string, unknown>) : undefined;
}

export function lookupSeconds(values: ParsedValues): number {
  const t = values.timeout;
  if (t !== undefined && typeof t !== 'string') throw new UsageError('--timeout takes a number of seconds');
  return timeoutSeconds(t);
}
