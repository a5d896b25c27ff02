/**
 * Reading the archive for pages: stable order, the states DECISIONS 9–11 give meaning to, counts, and safe
 * accessors for record fields (a valid record may still lack optional fields, and legacy kinds lack most).
 */
import { recordIdOf, resolveArchiveLink } from '../core/archive/paths.ts';
import { isWithdrawn as isWithdrawnRecord } from '../core/record/status.ts';
import { RECORD_KINDS } from '../core/record/vocabulary.ts';
import { byArchivePath, newestFirst } from '../core/publish/records.ts';
import { handedOverArchive, readSiteArchive, type SiteRecord } from './archive-source.ts';
import {
  relations,
  summarize,
  summarizeRecord,
  type ArchiveSummary,
  type RecordSummary,
  type Relations,
} from './archive-model.ts';
import { facetCounts, type FacetCounts } from './facets.ts';
import { sitePaths, type SitePaths } from './paths.ts';

export type RecordEntry = SiteRecord;
export type EchoRecord = RecordEntry['record'];

export { RECORD_KINDS, HISTORICAL_ONLY_LEVELS, isHistoricalOnlyLevel } from '../core/record/vocabulary.ts';

// The archive is read and validated once per build (not once per page; at 100,000 records that matters), by the
// integration when the build starts (src/site/integration.ts). `astro dev` reads it on every request, so edits to
// records show up.
let archive: Promise<RecordEntry[]> | undefined;

/** Every record in archive-path order (the public index's order): what the publishers of src/core/publish take. */
export function archiveRecords(): Promise<readonly RecordEntry[]> {
  const read = async () => byArchivePath(handedOverArchive() ?? (await readSiteArchive()));
  if (import.meta.env.ECHO_DEV_SERVER) return read();
  return (archive ??= read());
}

/**
 * Every record, newest first: by archive date (newest first), then by id (highest sequence first); records
 * without an archive date come last, by id. The order depends only on the records, never on the machine.
 */
export async function allRecords(): Promise<RecordEntry[]> {
  return (await sortedRecords()).slice();
}

let sorted: Promise<RecordEntry[]> | undefined;
function sortedRecords(): Promise<RecordEntry[]> {
  const read = async () => [...(await archiveRecords())].sort(newestFirst);
  if (import.meta.env.ECHO_DEV_SERVER) return read();
  return (sorted ??= read());
}

export interface ArchiveModel {
  /** Every record, newest first. */
  entries: readonly RecordEntry[];
  byId: ReadonlyMap<string, RecordEntry>;
  /** One light summary per entry, same order. */
  summaries: readonly RecordSummary[];
  summaryById: ReadonlyMap<string, RecordSummary>;
  relations: Relations;
  summary: ArchiveSummary;
  facetCounts: FacetCounts[];
}

let model: Promise<ArchiveModel> | undefined;

/** Everything pages need about the whole archive, computed once per build. */
export function archiveModel(): Promise<ArchiveModel> {
  const build = async (): Promise<ArchiveModel> => {
    const entries = await sortedRecords();
    const summaries = entries.map(summarizeRecord);
    const records = entries.map((e) => e.record);
    return {
      entries,
      byId: new Map(entries.map((e) => [e.id, e])),
      summaries,
      summaryById: new Map(summaries.map((s) => [s.id, s])),
      relations: relations(entries),
      summary: summarize(records),
      facetCounts: facetCounts(records),
    };
  };
  if (import.meta.env.ECHO_DEV_SERVER) return build();
  return (model ??= build());
}

/** DECISIONS 10 (the core's definition, typed for the site's records). */
export function isWithdrawn(record: EchoRecord): boolean {
  return isWithdrawnRecord(record);
}

export interface KindCount {
  kind: string;
  count: number;
}

/** Records per record_kind, withdrawn records left out; kinds in spec order, only kinds that occur. */
export function countByKind(entries: readonly RecordEntry[]): KindCount[] {
  const counts = new Map<string, number>();
  for (const e of entries) {
    if (isWithdrawn(e.record)) continue;
    const kind = text(e.record.record_kind) ?? 'unknown';
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const order = (k: string) => {
    const i = (RECORD_KINDS as readonly string[]).indexOf(k);
    return i === -1 ? RECORD_KINDS.length : i;
  };
  return [...counts]
    .map(([kind, count]) => ({ kind, count }))
    .sort((a, b) => order(a.kind) - order(b.kind) || (a.kind < b.kind ? -1 : 1));
}

// ---- URLs (base-aware, so the site can live under a sub-path; src/site/paths.ts) ----

export const paths: SitePaths = sitePaths(import.meta.env.BASE_URL);

/** A site path ("records/x/") under the configured base. */
export const sitePath = paths.site;
export const recordPagePath = paths.recordPage;
export const recordJsonPath = paths.recordJson;

/** The id of the record a linked_verification_report.path names (DECISIONS 8), if it is a record of the archive. */
export function linkedRecordId(entry: RecordEntry, byPath: ReadonlyMap<string, RecordEntry>): string | undefined {
  const link = object(entry.record.linked_verification_report);
  const path = link && text(link.path);
  const resolved = path === undefined ? undefined : resolveArchiveLink(path);
  return resolved === undefined ? undefined : byPath.get(resolved)?.id ?? recordIdOf(resolved);
}

// ---- Safe field access (src/site/values.ts) ----

export { bool, object, strings, text } from './values.ts';
import { object, text } from './values.ts';

/** A short one-line label for lists: the agent's name, else the kind. */
export function recordTitle(record: EchoRecord): string {
  const agent = object(record.agent_identity);
  return text(agent?.name_or_model) ?? text(record.record_kind) ?? 'record';
}

/** /browse/ pages: everything, or one facet value; page 1 has no number in its URL. */
export const browsePath = paths.browse;

/** Records per browse page. */
export const BROWSE_PAGE_SIZE = 50;
