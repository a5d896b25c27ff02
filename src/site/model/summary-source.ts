/**
 * What a record's list summary (summarizeRecord) is made from, when that is the record file alone: its path and the
 * SHA-256 of its bytes, which with the code (in every cache key) decide the summary whole. A listing page's cache key
 * names each of its summaries by it (listingCacheKey, src/site/build/cache/page-cache.ts) rather than by the hash of
 * its JSON: at 100,000 records that was 100,000 summaries written out and hashed on every build, 0.4 s of the main
 * thread. A summary made with a classification update's view (DECISIONS 26) has no source: its content decides it.
 * Kept beside the summaries rather than in them, so that the pages' jobs do not carry it.
 */
import type { RecordSummary } from './archive-model.ts';

const sources = new WeakMap<RecordSummary, string>();

/** Notes that `summary` was made from the record file at `path` (from the archive's root) whose bytes hash to `sha256`. */
export function noteSummarySource(summary: RecordSummary, path: string, sha256: string): void {
  sources.set(summary, `record ${sha256} ${path}`);
}

/** What `summary` was made from (noteSummarySource), if it was made from a record file alone. */
export function summarySourceOf(summary: RecordSummary): string | undefined {
  return sources.get(summary);
}
