/**
 * The published site as the MCP tools read it: the public index (/api/index.json, or its shards), raw records
 * (/records/<id>.json), documents under /api/, and the site's search (src/mcp/search.ts). Everything over HTTP
 * with the builder's own requests (src/builder/net.ts: a time-out and a size cap on each), cached for a short while
 * so that a conversation's many calls fetch the index once.
 */
import { resolveSiteUrl } from '../builder/commands/readback.ts';
import { indexDocuments } from '../builder/index-documents.ts';
import { getOk, NetworkError, type FetchedBody } from '../builder/net.ts';
import { SiteSearch } from './search.ts';

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
  private siteSearch: SiteSearch | undefined;

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
    const index = indexDocuments(body, async (url) => {
      const part = await this.get(url);
      bytes += part.bytes.byteLength;
      return part;
    });
    const doc = index.top as { record_count?: unknown; counts?: unknown };
    const entries: IndexEntry[] = [];
    for await (const { doc: part, body: from } of index.documents()) entries.push(...recordsOf(part, from.url));
    const byId = new Map(entries.map((e) => [e.id, e]));
    return {
      record_count: typeof doc.record_count === 'number' ? doc.record_count : entries.length,
      counts: doc.counts !== null && typeof doc.counts === 'object' ? (doc.counts as Record<string, unknown>) : {},
      entries,
      byId,
      bytes,
    };
  }

  /** The site's search (its search index), loaded once. */
  search(): SiteSearch {
    return (this.siteSearch ??= new SiteSearch(this));
  }
}

function recordsOf(doc: unknown, where: string): IndexEntry[] {
  const records = (doc as { records?: unknown } | null)?.records;
  if (!Array.isArray(records)) throw new NetworkError(`${where} is not a public index: no records list`);
  return records.filter((e): e is IndexEntry => typeof e === 'object' && e !== null && typeof (e as IndexEntry).id === 'string');
}
