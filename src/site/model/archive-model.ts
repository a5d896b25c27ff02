/**
 * What the pages need to know about the archive as a whole, computed once per build from the validated entries:
 * counts, relations between records (linked reports, supersession), and a light summary of each record for lists.
 * Pure (no Astro imports): the pages get it through records.ts, the tests call it directly.
 */
import { recordIdOf, resolveArchiveLink } from '../../core/archive/paths.ts';
import { untrustedMarkdownToText } from '../../core/markdown/render.ts';
import { archiveCounts, facetValueOf, NOT_SET, type FacetName } from '../../core/publish/facets.ts';
import { idsNamedIn, lifecycleLinks, pushUnique } from '../../core/record/lifecycle-links.ts';
import { isTestRecord, isWithdrawn } from '../../core/record/status.ts';
import { isHistoricalOnlyLevel } from '../../core/record/vocabulary.ts';
import { FACETS, facetValue } from './facets.ts';
import { valueLabel } from './labels.ts';

/** What the model needs of a record (the site's SiteRecord satisfies it). */
export interface ArchiveEntry {
  id: string;
  path: string;
  archiveDate: string | null;
  sha256: string;
  record: Readonly<Record<string, unknown>>;
  /**
   * The list excerpt (recordExcerpt), when worked out already: the site's entries carry it instead of the echo text,
   * which only the record page shows (src/site/build/2-read-archive.ts).
   */
  excerpt?: string;
}

// ---- Counts ----

export interface ValueCount {
  value: string;
  label: string;
  /** Records counted with this value (withdrawn ones left out). */
  count: number;
  /** Records listed with this value (withdrawn ones included): what its browse page lists. */
  listed: number;
}

export interface ArchiveSummary {
  /** Every record in the archive, withdrawn ones included (they are listed and marked). */
  listed: number;
  /** Withdrawn records (verification_status invalidated): listed, left out of every count below. */
  withdrawn: number;
  /** listed − withdrawn: the records every count below is over. */
  counted: number;
  /** Records that count as independent attestation (core's countsAsAttestation: opt-outs and withdrawals excluded). */
  attestations: number;
  byStatus: ValueCount[];
  byKind: ValueCount[];
}

/** The values some record lists (withdrawn or not), with how many are counted and how many listed. */
function nonZero(key: string, counts: Readonly<Record<string, number>>, listed: Readonly<Record<string, number>>): ValueCount[] {
  return Object.entries(counts)
    .filter(([value]) => value !== NOT_SET && (listed[value] ?? 0) > 0)
    .map(([value, count]) => ({ value, label: valueLabel(key, value), count, listed: listed[value] ?? 0 }));
}

/**
 * DECISIONS 9 and 10: withdrawn records are listed but not counted; attestation counts honour the opt-out. The
 * numbers are the core's (src/core/publish/facets.ts), so the home page agrees with the public index and feeds.
 */
export function summarize(records: readonly Readonly<Record<string, unknown>>[]): ArchiveSummary {
  const counts = archiveCounts(records as Record<string, unknown>[]);
  // What each value's browse page lists: every record, withdrawn ones included (their count is shown beside).
  const listedBy = (facet: FacetName): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const r of records) {
      const v = facetValueOf(r as Record<string, unknown>, facet);
      if (v !== null) out[v] = (out[v] ?? 0) + 1;
    }
    return out;
  };
  return {
    listed: counts.records,
    withdrawn: counts.withdrawn,
    counted: counts.counted,
    attestations: counts.counts_as_attestation,
    byStatus: nonZero('archive_status', counts.by_archive_status, listedBy('archive_status')),
    byKind: nonZero('record_kind', counts.by_record_kind, listedBy('record_kind')),
  };
}

// ---- Relations between records ----

export interface Relations {
  /** Record id → id of the archive record its linked_verification_report names (when that record exists). */
  linkedReport: Map<string, string>;
  /** Report id → ids of the records that link to it, in archive order. */
  linkedFrom: Map<string, string[]>;
  /** Correction id → the id of the record it corrects; and the reverse (the core's lifecycleLinks). */
  corrects: Map<string, string>;
  correctedBy: Map<string, string[]>;
  /** Superseded record id → ids of the records that supersede it (its corrections, ids its reason names). */
  supersededBy: Map<string, string[]>;
  /** The reverse of supersededBy. */
  supersedes: Map<string, string[]>;
}

export { idsNamedIn };

export function relations(entries: readonly ArchiveEntry[]): Relations {
  const ids = new Set(entries.map((e) => e.id));
  const byPath = new Map(entries.map((e) => [e.path, e.id]));
  const linkedReport = new Map<string, string>();
  const linkedFrom = new Map<string, string[]>();
  for (const entry of entries) {
    const link = entry.record.linked_verification_report;
    const linkPath =
      link !== null && typeof link === 'object' && !Array.isArray(link) ? (link as Record<string, unknown>).path : undefined;
    if (typeof linkPath === 'string') {
      const resolved = resolveArchiveLink(linkPath);
      const target = resolved === undefined ? undefined : (byPath.get(resolved) ?? (ids.has(recordIdOf(resolved)) ? recordIdOf(resolved) : undefined));
      if (target !== undefined && target !== entry.id) {
        linkedReport.set(entry.id, target);
        pushUnique(linkedFrom, target, entry.id);
      }
    }
  }
  return { linkedReport, linkedFrom, ...lifecycleLinks(entries) };
}

// ---- States shown as banners and badges ----

export interface RecordFlags {
  withdrawn: boolean;
  superseded: boolean;
  test: boolean;
  historicalLevel: boolean;
  needsReview: boolean;
  rejected: boolean;
  legacy: boolean;
}

export function recordFlags(r: Readonly<Record<string, unknown>>): RecordFlags {
  return {
    withdrawn: isWithdrawn(r),
    superseded: r.archive_status === 'superseded',
    test: isTestRecord(r),
    historicalLevel: isHistoricalOnlyLevel(r.verification_level),
    needsReview: r.archive_status === 'needs_human_review',
    rejected: r.archive_status === 'rejected',
    legacy: r.record_kind === 'legacy_record' || r.archive_status === 'legacy',
  };
}

export interface Badge {
  text: string;
  tone: 'warn' | 'info' | 'plain';
}

/** Short badges for lists and page headers, most important first. */
export function recordBadges(r: Readonly<Record<string, unknown>>): Badge[] {
  const f = recordFlags(r);
  const badges: Badge[] = [];
  if (f.withdrawn) badges.push({ text: 'Withdrawn', tone: 'warn' });
  if (f.superseded) badges.push({ text: 'Superseded', tone: 'warn' });
  if (f.rejected) badges.push({ text: 'Rejected', tone: 'warn' });
  if (f.test) badges.push({ text: 'Test record', tone: 'info' });
  if (f.historicalLevel) badges.push({ text: `${String(r.verification_level)}: historical only`, tone: 'info' });
  if (f.needsReview) badges.push({ text: 'Needs human review', tone: 'plain' });
  if (f.legacy) badges.push({ text: 'Legacy', tone: 'plain' });
  return badges;
}

/**
 * Badges for list items, where the kind and the status are already shown in words: only the states those do not
 * show (withdrawn, a historical-only level, a test record whose kind and status do not say so).
 */
export function listBadges(r: Readonly<Record<string, unknown>>): Badge[] {
  const f = recordFlags(r);
  const badges: Badge[] = [];
  if (f.withdrawn) badges.push({ text: 'Withdrawn', tone: 'warn' });
  if (f.test && r.record_kind !== 'test_record' && r.archive_status !== 'test_record' && r.archive_status !== 'closed_test_record') {
    badges.push({ text: 'Test record', tone: 'info' });
  }
  if (f.historicalLevel) badges.push({ text: `${String(r.verification_level)}: historical only`, tone: 'info' });
  return badges;
}

/** Archive statuses that lists show as a warning. */
export function statusTone(status: string): 'warn' | undefined {
  return status === 'superseded' || status === 'rejected' ? 'warn' : undefined;
}

// ---- A light summary of each record for lists ----

export interface RecordSummary {
  id: string;
  date: string | null;
  /** The agent's name as the record states it (untrusted text), else the record kind's label. */
  title: string;
  titleIsAgent: boolean;
  kind: string;
  status: string;
  /** One line of plain text: the understanding summary, else the verification claim, else the echo. */
  excerpt: string;
  withdrawn: boolean;
  /** Badges for lists (listBadges). */
  badges: Badge[];
  /** facet key → value (null when not stated). */
  facets: Record<string, string | null>;
}

export const EXCERPT_LENGTH = 220;

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).replace(/[\s,;:.—–-]+$/, '')}…`;
}

function plain(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.replace(/\s+/g, ' ').trim() : undefined;
}

/** One line of plain text for lists: the understanding summary, else the verification claim, else the echo's start. */
export function recordExcerpt(r: Readonly<Record<string, unknown>>): string {
  const echo = typeof r.echo === 'string' ? r.echo : undefined;
  const source = plain(r.understanding_summary) ?? plain(r.verification_claim) ?? (echo !== undefined ? untrustedMarkdownToText(echo.slice(0, 4 * EXCERPT_LENGTH)) : '');
  return truncate(source, EXCERPT_LENGTH);
}

export function summarizeRecord(entry: ArchiveEntry): RecordSummary {
  const r = entry.record;
  const agent = r.agent_identity !== null && typeof r.agent_identity === 'object' ? (r.agent_identity as Record<string, unknown>) : undefined;
  const agentName = plain(agent?.name_or_model);
  const kind = typeof r.record_kind === 'string' ? r.record_kind : '';
  const facets: Record<string, string | null> = {};
  for (const f of FACETS) facets[f.key] = facetValue(r, f.key);
  return {
    id: entry.id,
    date: entry.archiveDate,
    title: agentName ?? (kind ? valueLabel('record_kind', kind) : entry.id),
    titleIsAgent: agentName !== undefined,
    kind,
    status: typeof r.archive_status === 'string' ? r.archive_status : '',
    excerpt: entry.excerpt ?? recordExcerpt(r),
    withdrawn: isWithdrawn(r),
    badges: listBadges(r),
    facets,
  };
}
