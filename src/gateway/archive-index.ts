/**
 * The public index as the gateway reads it (docs/guardians.md section 2): which records are archived, with the
 * SHA-256 of each file's bytes, for chain/guardian-not-registered and chain/classification-target. From
 * ECHO_GATEWAY_INDEX_URL (default `<site url>/api/index.json`): an http(s) URL, or an absolute path of a built
 * site's api/index.json. A sharded index is a manifest whose shards ({url, sha256}) hold the entries; shard and record
 * urls beginning with a slash are relative to the site (for a file, to the directory holding api/). The index is
 * kept for about a minute; a record file read for a check is kept by its SHA-256 (its bytes cannot change).
 * Failures throw IndexUnavailable (the gateway answers 503 archive_index_unavailable).
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { sha256Hex } from '../core/crypto/sha256.ts';

export class IndexUnavailable extends Error {}

export interface IndexedRecord {
  id: string;
  sha256: string;
  /** Where the raw record is: a URL or a file path. */
  location: string;
  record_type: string | null;
}

export interface ArchiveIndexOptions {
  /** How long one reading of the index is used (default 60 s). */
  ttlMs?: number;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Largest document read (default 64 MiB). */
  maxBytes?: number;
}

const RAW_CACHE_MAX = 256;

export class ArchiveIndex {
  readonly source: string;
  private readonly ttlMs: number;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private cached: { at: number; byId: Map<string, IndexedRecord> } | undefined;
  private loading: Promise<Map<string, IndexedRecord>> | undefined;
  private readonly raw = new Map<string, Record<string, unknown>>();

  constructor(source: string, options: ArchiveIndexOptions = {}) {
    if (!/^https?:\/\//i.test(source) && !isAbsolute(source)) {
      throw new Error(`ECHO_GATEWAY_INDEX_URL must be an http(s) URL or an absolute file path (found "${source}")`);
    }
    this.source = source;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  }

  private isFile(): boolean {
    return !/^https?:\/\//i.test(this.source);
  }

  /** Where a site-relative url ("/api/index/1.json", "/records/x.json") is, for this source. */
  private resolve(url: string): string {
    if (/^https?:\/\//i.test(url)) return url;
    if (this.isFile()) {
      // <root>/api/index.json → <root>
      const root = dirname(dirname(this.source));
      return join(root, url.replace(/^\/+/, ''));
    }
    const u = new URL(this.source);
    const m = /^(.*)\/api\/index\.json$/.exec(u.pathname);
    return `${u.origin}${m ? m[1]! : ''}/${url.replace(/^\/+/, '')}`;
  }

  private async read(location: string): Promise<Buffer> {
    try {
      if (!/^https?:\/\//i.test(location)) {
        const bytes = await readFile(location);
        if (bytes.byteLength > this.maxBytes) throw new Error(`more than ${this.maxBytes} bytes`);
        return bytes;
      }
      const res = await fetch(location, { headers: { accept: 'application/json' }, redirect: 'follow', signal: AbortSignal.timeout(this.timeoutMs) });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.byteLength > this.maxBytes) throw new Error(`more than ${this.maxBytes} bytes`);
      return bytes;
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new IndexUnavailable(`cannot read ${location}: ${cause ?? (err as Error).message}`);
    }
  }

  private static json(bytes: Buffer, where: string): unknown {
    try {
      return JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new IndexUnavailable(`${where} is not JSON`);
    }
  }

  private add(byId: Map<string, IndexedRecord>, doc: unknown, where: string): void {
    const records = (doc as { records?: unknown } | null)?.records;
    if (!Array.isArray(records)) throw new IndexUnavailable(`${where} is not a public index: no records list`);
    for (const e of records as Array<Record<string, unknown> | null>) {
      if (!e || typeof e.id !== 'string' || typeof e.sha256 !== 'string' || typeof e.url !== 'string') continue;
      byId.set(e.id, { id: e.id, sha256: e.sha256, location: this.resolve(e.url), record_type: typeof e.record_type === 'string' ? e.record_type : null });
    }
  }

  private async load(): Promise<Map<string, IndexedRecord>> {
    const index = ArchiveIndex.json(await this.read(this.source), this.source);
    const byId = new Map<string, IndexedRecord>();
    const shards = (index as { shards?: unknown } | null)?.shards;
    if (!Array.isArray(shards)) {
      this.add(byId, index, this.source);
      return byId;
    }
    for (const shard of shards as Array<{ url?: unknown; sha256?: unknown } | null>) {
      if (typeof shard?.url !== 'string') throw new IndexUnavailable(`${this.source}: a shard has no url`);
      const where = this.resolve(shard.url);
      const bytes = await this.read(where);
      if (typeof shard.sha256 === 'string' && sha256Hex(bytes) !== shard.sha256) {
        throw new IndexUnavailable(`the shard ${where} does not hash to the sha256 the manifest lists (the site may be mid-publication)`);
      }
      this.add(byId, ArchiveIndex.json(bytes, where), where);
    }
    return byId;
  }

  /** The entries by id, read at most about once a minute (one reading at a time). */
  async entries(): Promise<Map<string, IndexedRecord>> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return this.cached.byId;
    if (!this.loading) {
      const loading = this.load().then((byId) => {
        this.cached = { at: Date.now(), byId };
        return byId;
      });
      this.loading = loading;
      void loading.then(
        () => undefined,
        () => undefined,
      ).finally(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }

  async entry(id: string): Promise<IndexedRecord | undefined> {
    return (await this.entries()).get(id);
  }

  /** The archived record, when its bytes hash to the index's SHA-256 (else null: the site is mid-publication). */
  async record(entry: IndexedRecord): Promise<Record<string, unknown> | null> {
    const key = `${entry.sha256}:${entry.location}`;
    if (this.raw.has(key)) return this.raw.get(key)!;
    const bytes = await this.read(entry.location);
    let value: Record<string, unknown> | null = null;
    if (sha256Hex(bytes) === entry.sha256) {
      const parsed = ArchiveIndex.json(bytes, entry.location);
      value = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    }
    if (value === null) return null; // not kept: the file may yet be published with the listed bytes
    if (this.raw.size >= RAW_CACHE_MAX) this.raw.delete(this.raw.keys().next().value!);
    this.raw.set(key, value);
    return value;
  }
}

/** ECHO_GATEWAY_INDEX_URL, else the site's /api/index.json. */
export function gatewayIndexSource(env: Record<string, string | undefined>, siteBaseUrl: string): string {
  return env.ECHO_GATEWAY_INDEX_URL?.trim() || `${siteBaseUrl}/api/index.json`;
}
