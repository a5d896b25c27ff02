/**
 * The whole-archive model the listing pages, the home page and the search page share: one light summary per record
 * in the two orders they list, the archive's counts and each facet's values. Derived once per build from the records
 * the integration read (src/site/build/integration.ts renders the listing pages from it beside Astro; the Astro
 * pages ask for the same records' model through src/site/model/records.ts), like the archive's views
 * (archiveViewsOf). No Astro imports, no import.meta.env.
 */
import { effectiveRecord } from '../../core/publish/archive-views.ts';
import { newestFirstOrder } from '../../core/publish/records.ts';
import { archiveOrder } from '../../core/search/archive-order.ts';
import { archiveViewsOf, type SiteRecord } from '../build/2-read-archive.ts';
import { summarize, summarizeRecord, type ArchiveSummary, type RecordSummary } from './archive-model.ts';
import { facetCounts, type FacetCounts } from './facets.ts';

export interface ArchiveModel {
  /** Every record by id. */
  byId: ReadonlyMap<string, SiteRecord>;
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

const models = new WeakMap<readonly SiteRecord[], ArchiveModel>();

/** The model of these validated records, derived on the first call for this very array and reused after. */
export function archiveModelOf(records: readonly SiteRecord[]): ArchiveModel {
  let model = models.get(records);
  if (model === undefined) models.set(records, (model = deriveModel(records)));
  return model;
}

function deriveModel(records: readonly SiteRecord[]): ArchiveModel {
  const views = archiveViewsOf(records);
  const entries = newestFirstOrder(records);
  // Counts, facets and the facet pages read the effective classification (DECISIONS 26).
  const effective = entries.map((e) => ({ ...e, record: effectiveRecord(views, e.id, e.record) }));
  const summaries = effective.map(summarizeRecord);
  const effectiveRecords = effective.map((e) => e.record);
  return {
    byId: new Map(entries.map((e) => [e.id, e])),
    summaries,
    arrivals: archiveOrder(summaries, (s) => s.id),
    summary: summarize(effectiveRecords),
    facetCounts: facetCounts(effectiveRecords),
  };
}
