/**
 * The whole-archive model the listing pages, the home page and the search page share: one light summary per record
 * in the two orders they list, the archive's counts and each facet's values. Computed once per build by the
 * integration (src/site/build/integration.ts), which renders the listing pages from it beside Astro and hands it
 * over to the Astro pages (src/site/model/records.ts), so that neither computes it a second time.
 * Pure but for the hand-over slot: no Astro imports, no import.meta.env.
 */
import { effectiveRecord, type ArchiveViews } from '../../core/publish/archive-views.ts';
import { newestFirst } from '../../core/publish/records.ts';
import { archiveOrder } from '../../core/search/archive-order.ts';
import type { SiteRecord } from '../build/2-read-archive.ts';
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

/** The model of these validated records, with the guardian and classification views derived from them. */
export function archiveModelOf(records: readonly SiteRecord[], views: ArchiveViews): ArchiveModel {
  const entries = [...records].sort(newestFirst);
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

// The integration and the Astro pages are separate module instances (Astro bundles the pages): a global slot.
const HANDED_OVER = Symbol.for('echo-archive.archive-model');
type Slot = { [HANDED_OVER]?: ArchiveModel };

/** Hands this build's model to the Astro pages (undefined when the build ends). */
export function handOverModel(model: ArchiveModel | undefined): void {
  (globalThis as Slot)[HANDED_OVER] = model;
}

export function handedOverModel(): ArchiveModel | undefined {
  return (globalThis as Slot)[HANDED_OVER];
}
