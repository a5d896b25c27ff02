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
import { runInSlices, runToEnd } from '../../core/util/time-slices.ts';
import { archiveViewsOf, type SiteRecord } from '../build/2-read-archive.ts';
import { summarize, summarizeRecord, type ArchiveSummary, type RecordSummary } from './archive-model.ts';
import { facetCounts, type FacetCounts } from './facets.ts';
import { noteSummarySource } from './summary-source.ts';

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
  if (model === undefined) models.set(records, (model = runToEnd(modelSteps(records))));
  return model;
}

/**
 * archiveModelOf, derived in slices of the thread's time (src/core/util/time-slices.ts): the build's main thread hands
 * the page threads their batches meanwhile (in one piece, half a second at 100,000 records, the threads ran out of
 * work). The same model as archiveModelOf's, which gets it too.
 */
export async function archiveModelInSlices(records: readonly SiteRecord[]): Promise<ArchiveModel> {
  const known = models.get(records);
  if (known !== undefined) return known;
  const model = await runInSlices(modelSteps(records));
  // archiveModelOf may have been asked meanwhile: one model per records array, whichever came first.
  if (!models.has(records)) models.set(records, model);
  return models.get(records)!;
}

/** Records summarised between two steps of modelSteps. */
const SUMMARIES_PER_STEP = 2_000;

function* modelSteps(records: readonly SiteRecord[]): Generator<void, ArchiveModel> {
  const views = archiveViewsOf(records);
  const entries = newestFirstOrder(records);
  yield;
  // Counts, facets and the facet pages read the effective classification (DECISIONS 26).
  const summaries: RecordSummary[] = [];
  const effectiveRecords: Readonly<Record<string, unknown>>[] = [];
  for (const entry of entries) {
    const record = effectiveRecord(views, entry.id, entry.record);
    effectiveRecords.push(record);
    const summary = summarizeRecord(record === entry.record ? entry : { ...entry, record });
    if (record === entry.record) noteSummarySource(summary, entry.path, entry.sha256);
    summaries.push(summary);
    if (summaries.length % SUMMARIES_PER_STEP === 0) yield;
  }
  const arrivals = archiveOrder(summaries, (s) => s.id);
  yield;
  const summary = summarize(effectiveRecords);
  yield;
  return {
    byId: new Map(entries.map((e) => [e.id, e])),
    summaries,
    arrivals,
    summary,
    facetCounts: facetCounts(effectiveRecords),
  };
}
