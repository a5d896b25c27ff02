/**
 * What the site keeps of each record (src/site/build/2-read-archive.ts: SiteRecord, the record without its page-only
 * fields, and its list excerpt), kept from one build to the next, so that a record file whose bytes did not change is
 * not decoded and parsed again: about half of reading an archive. One line per record in
 * `<build cache>/site-records/records.txt` (keyed-lines.ts: found by path and the SHA-256 of the bytes, answering only
 * for the site's code, PAGE_CODE), whose payload is JSON [record, excerpt].
 */
import { join } from 'node:path';
import { buildCacheRoot } from '../../../core/publish/build-cache.ts';
import type { JsonObject } from '../../../core/rules/rule.ts';
import { codeFingerprint, PAGE_CODE } from './code-fingerprint.ts';
import { openKeyedLines, type KeyedLines } from './keyed-lines.ts';

const KIND = { magic: 'echo-archive site record cache 1', noun: 'site record cache', lineNoun: 'site record' };
const FILE_NAME = 'records.txt';

/** What the site keeps of a record, apart from what its file and its place in the archive say. */
export interface KeptSiteRecord {
  /** The record without its page-only fields. */
  record: JsonObject;
  excerpt: string;
}

export interface SiteRecordCache {
  readonly file: string;
  readonly ignored?: string;
  /** How many records it held when opened (0 when there was no file, or it was ignored). */
  readonly loaded: number;
  /** What was kept of the record file at `path` whose bytes hash to `sha256`, if anything. */
  get(path: string, sha256: string): KeptSiteRecord | undefined;
  /** Keeps what the site keeps of the record file at `path` whose bytes hash to `sha256`. */
  put(path: string, sha256: string, kept: KeptSiteRecord): void;
  /** Replaces the file with this build's records, unless they are those it holds. */
  save(): void;
}

/** The site record cache of the project at `repo`: under its build cache folder, keyed by the site's code. */
export function openProjectSiteRecordCache(repo: string, env: Record<string, string | undefined> = process.env): SiteRecordCache {
  return openSiteRecordCache(join(buildCacheRoot(repo, env), 'site-records'), codeFingerprint(repo, PAGE_CODE));
}

export function openSiteRecordCache(dir: string, code: string): SiteRecordCache {
  const lines: KeyedLines = openKeyedLines(dir, FILE_NAME, KIND, code);
  return {
    file: lines.file,
    loaded: lines.loaded,
    ...(lines.ignored === undefined ? {} : { ignored: lines.ignored }),
    get(path, sha256) {
      const payload = lines.get(path, sha256);
      const kept = payload === undefined ? undefined : keptOf(payload);
      if (kept) lines.put(path, sha256, payload!);
      return kept;
    },
    put(path, sha256, { record, excerpt }) {
      lines.put(path, sha256, JSON.stringify([record, excerpt]));
    },
    save: () => lines.save(),
  };
}

/** A kept site record (JSON: [record, excerpt]), or undefined if its JSON is not one. */
function keptOf(payload: string): KeptSiteRecord | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [record, excerpt] = value as unknown[];
    if (record === null || typeof record !== 'object' || Array.isArray(record) || typeof excerpt !== 'string') return undefined;
    return { record: record as JsonObject, excerpt };
  } catch {
    return undefined;
  }
}
