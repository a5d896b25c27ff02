/**
 * The plain data every publisher works from: one value per record, as the validated archive holds it. No Astro
 * here: the site passes its records (a superset of this shape), tests build these values directly.
 */

import { compareCodePoints } from '../util/compare.ts';

export { compareCodePoints };

export interface PublishRecord {
  /** The record id: its file name without `.json` (DECISIONS 1). */
  id: string;
  /** Path of the record file from the archive root, forward slashes. */
  path: string;
  /** Archive date (YYYY-MM-DD) of a conventionally named record, else null. */
  archiveDate: string | null;
  /** Lowercase hex SHA-256 of the record file's exact bytes. */
  sha256: string;
  /** The parsed, validated record. */
  record: Record<string, unknown>;
  /** The record's leaves in the transparency log (src/core/log), when the archive has a log. */
  log?: RecordLogView;
}

export interface RecordLogView {
  /** The leaf of the record's current bytes; null while they are not logged yet (npm run log:append). */
  leafIndex: number | null;
  /** Every logged version, oldest first; `url` is where earlier bytes are published (null: current, or not kept). */
  versions: Array<{ leafIndex: number; sha256: string; current: boolean; url: string | null }>;
}

/** A copy sorted by archive path in code-point order: the public index's order. */
export function byArchivePath<T extends { path: string }>(records: readonly T[]): T[] {
  return [...records].sort((a, b) => compareCodePoints(a.path, b.path));
}

/** What the newest-first order reads of a record. */
type Dated = { id: string; path: string; archiveDate: string | null };

/**
 * The archive's newest-first order (browse pages, record pages, feeds): by archive date descending, the higher id
 * (sequence number) of the same day first; records without an archive date last, by id ascending; then by path.
 * Code-point comparisons only, so the order depends on the records, never on the machine or locale.
 */
export function newestFirst(a: Dated, b: Dated): number {
  if (a.archiveDate !== b.archiveDate) {
    if (a.archiveDate === null) return 1;
    if (b.archiveDate === null) return -1;
    return compareCodePoints(b.archiveDate, a.archiveDate);
  }
  const byId = a.archiveDate === null ? compareCodePoints(a.id, b.id) : compareCodePoints(b.id, a.id);
  return byId || compareCodePoints(a.path, b.path);
}

/**
 * These records in newest-first order: sorted on the first call for this very array and the same order given after.
 * A build asks for it three times (the model, the record pages' jobs, the feeds): sorting 100,000 records took 50 ms
 * of its main thread each time. The array and the records must not change after the first call, as a build's do not.
 */
export function newestFirstOrder<T extends Dated>(records: readonly T[]): readonly T[] {
  let order = sortedOnce.get(records);
  if (order === undefined) sortedOnce.set(records, (order = [...records].sort(newestFirst)));
  return order as readonly T[];
}
const sortedOnce = new WeakMap<readonly Dated[], readonly Dated[]>();

/** A copy in newest-first order, records without an archive date left out (feeds never invent a date). */
export function datedNewestFirst<T extends Dated>(records: readonly T[]): T[] {
  // Records without a date sort last: the dated ones are the order's beginning.
  const order = newestFirstOrder(records);
  const undated = order.findIndex((r) => r.archiveDate === null);
  return order.slice(0, undated < 0 ? order.length : undated);
}

/** The site path (relative to the base URL) of a record's raw JSON. */
export function recordJsonUrl(id: string): string {
  return `/records/${encodeURIComponent(id)}.json`;
}

/** The site path (relative to the base URL) of a record's page. */
export function recordPageUrl(id: string): string {
  return `/records/${encodeURIComponent(id)}/`;
}

// ---- Safe field access: a valid record may lack optional fields ----

export function stringField(record: Record<string, unknown>, key: string): string | null {
  const value = record[key];
  return typeof value === 'string' ? value : null;
}

export function objectField(record: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = record[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
