/**
 * The published site as the MCP tools read it: the public index (/api/index.json, or its shards), raw records
 * (/records/<id>.json), documents under /api/, and the site's search (src/mcp/pagefind.ts). Everything over HTTP
 * with the builder's own requests (src/builder/net.ts: a time-out and a size cap on each), cached for a short while
 * so that a conversation's many calls fetch the index once.
 */
import { sha256Hex } from '../core/crypto/sha256.ts';
import { resolveSiteUrl } from '../builder/commands/readback.ts';
import { getOk, jsonOf, NetworkError, type FetchedBody } from '../builder/net.ts';
import { PagefindSearch } from './pagefind.ts';

/** The fields of a public index entry the tools read (/api/public-index-schema.v1.json has them all). */
export interface IndexEntry {
  id: string;
  url: string;
  page?: string;
  sha256: string;
  archive_date?: string | null;
  record_kind?: string | null;
  record_type?: string | null;
  archive_status?: string | null;
  superseded_by?: string[] | null;
  leaf_index?: number | null;
  submission_sha256?: string | null;
  submitted?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface PublicIndexView {
  record_count: number;
  counts: Record<string, unknown>;
  entries: IndexEntry[];
  byId: Map<string, IndexEntry>;
  /** Bytes fetched for it (the index, or its manifest and shards). */
  bytes: number;
}

/** How long the index is reused before it is fetched again (the site changes only when it is published). */
export const INDEX_CACHE_MS = 30_000;

export class SiteClient {
  readonly base: string;
  readonly seconds: number;
  private index: { at: number; view: Promise<PublicIndexView> } | undefined;
  private search: PagefindSearch | undefined;

  constructor(base: string, seconds = 30) {
    this.base = base.replace(/\/+$/, '');
    this.seconds = seconds;
  }

  url(path: string): string {
    return resolveSiteUrl(path, this.base);
  }

  get(path: string, accept = 'application/json'): Promise<FetchedBody> {
    return getOk(this.url(path), this.seconds, accept);
  }

  /** A document the site may lawfully not have: undefined on 404. */
  getIfPresent(path: string, accept = 'application/json'): Promise<FetchedBody | undefined> {
    return getOk(this.url(path), this.seconds, accept, { absentOn404: true });
  }

  publicIndex(): Promise<PublicIndexView> {
    if (this.index && Date.now() - this.index.at < INDEX_CACHE_MS) return this.index.view;
    const view = this.loadIndex();
    this.index = { at: Date.now(), view };
    view.catch(() => {
      if (this.index?.view === view) this.index = undefined;
    });
    return view;
  }

  private async loadIndex(): Promise<PublicIndexView> {
    const body = await this.get('/api/index.json');
    let bytes = body.bytes.byteLength;
    const doc = jsonOf(body) as { record_count?: unknown; counts?: unknown; records?: unknown; shards?: unknown };
    const entries: IndexEntry[] = [];
    if (Array.isArray(doc.shards)) {
      for (const shard of doc.shards as Array<{ url?: unknown; sha256?: unknown }>) {
        if (typeof shard?.url !== 'string') throw new NetworkError(`${body.url}: a shard has no url`);
        const part = await this.get(shard.url);
        bytes += part.bytes.byteLength;
        if (typeof shard.sha256 === 'string' && sha256Hex(part.bytes) !== shard.sha256) {
          throw new NetworkError(`the shard ${part.url} does not hash to the sha256 the manifest lists (the site may be mid-publication: try again)`);
        }
        entries.push(...recordsOf(jsonOf(part), part.url));
      }
    } else {
      entries.push(...recordsOf(doc, body.url));
    }
    const byId = new Map(entries.map((e) => [e.id, e]));
    return {
      record_count: typeof doc.record_count === 'number' ? doc.record_count : entries.length,
      counts: doc.counts !== null && typeof doc.counts === 'object' ? (doc.counts as Record<string, unknown>) : {},
      entries,
      byId,
      bytes,
    };
  }

  /** The site's search (Pagefind), loaded once. */
  pagefind(): PagefindSearch {
    return (this.search ??= new PagefindSearch(this));
  }
}

function recordsOf(doc: unknown, where: string): IndexEntry[] {
  const records = (doc as { records?: unknown } | null)?.records;
  if (!Array.isArray(records)) throw new NetworkError(`${where} is not a public index: no records list`);
  return records.filter((e): e is IndexEntry => typeof e === 'object' && e !== null && typeof (e as IndexEntry).id === 'string');
}
