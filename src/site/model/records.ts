/**
 * Reading the archive for pages: the records once per build in the two stable orders, the whole-archive model the
 * listing pages share, and the site's URLs under the configured base.
 */
import { effectiveRecord, guardianPageUrl, type ArchiveViews } from '../../core/publish/archive-views.ts';
import { SITE_PAGES } from '../../core/publish/sitemap.ts';
import { buildPublicIndex, indexShardBytes, type PublicIndex } from '../../core/publish/public-index.ts';
import { byArchivePath, newestFirst } from '../../core/publish/records.ts';
import { archiveOrder } from '../../core/search/archive-order.ts';
import { archiveViewsOf, handedOverArchive, readSiteArchive, type SiteRecord } from '../build/2-read-archive.ts';
import { summarize, summarizeRecord, type ArchiveSummary, type RecordSummary } from './archive-model.ts';
import { facetCounts, type FacetCounts } from './facets.ts';
import { browsePageSize } from './listing-pages.ts';
import { sitePaths, type SitePaths } from './paths.ts';

export type RecordEntry = SiteRecord;

// The archive is read and validated once per build (not once per page; at 100,000 records that matters), by the
// integration when the build starts (src/site/build/integration.ts). `astro dev` reads it on every request, so edits to
// records show up.
let archive: Promise<RecordEntry[]> | undefined;

/** Every record in archive-path order (the public index's order): what the publishers of src/core/publish take. */
export function archiveRecords(): Promise<readonly RecordEntry[]> {
  const read = async () => byArchivePath(handedOverArchive() ?? (await readSiteArchive()));
  if (import.meta.env.ECHO_DEV_SERVER) return read();
  return (archive ??= read());
}

/**
 * The guardian registry and classification views of the archive (src/core/publish/archive-views.ts): the same
 * derivation the record pages read, once per build (keyed by the records the integration handed over).
 */
export async function archiveViews(): Promise<ArchiveViews> {
  const handed = handedOverArchive();
  if (handed !== undefined) return archiveViewsOf(handed);
  return archiveViewsOf(await archiveRecords());
}

/** The sitemap's fixed pages and each guardian's page (/guardians/<guardian_id>/), before the record pages. */
export async function sitemapPages(): Promise<string[]> {
  return [...SITE_PAGES, ...(await archiveViews()).registry.guardians.map((g) => guardianPageUrl(g.guardian_id))];
}

export interface ArchiveModel {
  /** Every record by id. */
  byId: ReadonlyMap<string, RecordEntry>;
  /** One light summary per record, newest first by archive date (core's newestFirst: the home page's newest). */
  summaries: readonly RecordSummary[];
  /**
   * The same summaries in order of arrival, oldest first: the listings' order (src/site/model/listing-pages.ts), in
   * which an appended record is always the last.
   */
  arrivals: readonly RecordSummary[];
  summary: ArchiveSummary;
  facetCounts: FacetCounts[];
}

let model: Promise<ArchiveModel> | undefined;

/**
 * Everything the listing pages need about the whole archive, computed once per build. (The record pages are rendered
 * beside Astro with their own relations, src/site/build/3-record-pages.ts.)
 */
export function archiveModel(): Promise<ArchiveModel> {
  const build = async (): Promise<ArchiveModel> => {
    const entries = [...(await archiveRecords())].sort(newestFirst);
    // Counts, facets and the facet pages read the effective classification (DECISIONS 26).
    const views = await archiveViews();
    const effective = entries.map((e) => ({ ...e, record: effectiveRecord(views, e.id, e.record) }));
    const summaries = effective.map(summarizeRecord);
    const records = effective.map((e) => e.record);
    return {
      byId: new Map(entries.map((e) => [e.id, e])),
      summaries,
      arrivals: archiveOrder(summaries, (s) => s.id),
      summary: summarize(records),
      facetCounts: facetCounts(records),
    };
  };
  if (import.meta.env.ECHO_DEV_SERVER) return build();
  return (model ??= build());
}

let index: Promise<Pick<PublicIndex, 'index' | 'shards'>> | undefined;

/**
 * The public index (/api/index.json and its shards, src/core/publish/public-index.ts), built once per build: both
 * routes are cut from it. Only the published texts are kept, not the 100,000s of entries they were written from.
 */
export function publicIndex(): Promise<Pick<PublicIndex, 'index' | 'shards'>> {
  const build = async () => {
    const { index, shards } = buildPublicIndex(await archiveRecords(), { maxBytes: indexShardBytes(), views: await archiveViews() });
    return { index, shards };
  };
  if (import.meta.env.ECHO_DEV_SERVER) return build();
  return (index ??= build());
}

// ---- URLs (base-aware, so the site can live under a sub-path; src/site/model/paths.ts) ----

export const paths: SitePaths = sitePaths(import.meta.env.BASE_URL);

/** A site path ("records/x/") under the configured base. */
export const sitePath = paths.site;

/** /browse/ pages: everything, or one facet value; its front page, or a numbered page (paths.ts). */
export const browsePath = paths.browse;

/** Records per full page of a listing (src/site/model/listing-pages.ts). */
export const BROWSE_PAGE_SIZE = browsePageSize();
