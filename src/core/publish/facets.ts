/**
 * The facets a reader or an agent filters records on, and how many records each facet value has. One definition
 * for the public index, the feeds and any page that shows counts, so that counts agree wherever they are shown.
 */
import { countsAsAttestation, isWithdrawn } from '../record/status.ts';
import {
  ARCHIVE_STATUSES,
  ASSESSMENT_STATES,
  CONTEXT_DEPTHS,
  INDEPENDENCE_CLASSES,
  RECORD_KINDS,
  VERIFICATION_LEVELS,
  isHistoricalOnlyLevel,
} from '../record/vocabulary.ts';
import { recordTypeOf } from '../record/record-chain-fields.ts';
import { RECORD_TYPES } from '../record-chain/types.ts';
import { compareCodePoints, stringField } from './records.ts';

/** Facet fields and their values, in the schema's (the spec's) order. */
export const FACETS = {
  record_kind: RECORD_KINDS,
  /** A record-chain record's type (DECISIONS 19), kept in extensions.record_chain; null for other records. */
  record_type: RECORD_TYPES,
  archive_status: ARCHIVE_STATUSES,
  context_depth: CONTEXT_DEPTHS,
  assessment_state: ASSESSMENT_STATES,
  verification_level: VERIFICATION_LEVELS,
  independence_class: INDEPENDENCE_CLASSES,
} as const satisfies Record<string, readonly string[]>;

export type FacetName = keyof typeof FACETS;
export const FACET_NAMES = Object.keys(FACETS) as FacetName[];

/** A record's value for a facet: the top-level field of that name, or the record-chain type; null when absent. */
export function facetValueOf(record: Record<string, unknown>, facet: FacetName): string | null {
  return facet === 'record_type' ? recordTypeOf(record) : stringField(record, facet);
}

/** What the archive derives from a record's state fields (spec section 3, DECISIONS 9–11). */
export interface RecordFlags {
  withdrawn: boolean;
  counts_as_attestation: boolean;
  historical_only_level: boolean;
}

export function recordFlags(record: Record<string, unknown>): RecordFlags {
  return {
    withdrawn: isWithdrawn(record),
    counts_as_attestation: countsAsAttestation(record),
    historical_only_level: isHistoricalOnlyLevel(record.verification_level),
  };
}

export type FacetCounts = Record<string, number>;

export interface ArchiveCounts {
  /** Every record, withdrawn ones included. */
  records: number;
  withdrawn: number;
  /** Records that are counted: not withdrawn. */
  counted: number;
  /** Records that count as independent attestation (DECISIONS 9, 10 and 18: countsAsAttestation). */
  counts_as_attestation: number;
  by_record_kind: FacetCounts;
  by_record_type: FacetCounts;
  by_archive_status: FacetCounts;
  by_context_depth: FacetCounts;
  by_assessment_state: FacetCounts;
  by_verification_level: FacetCounts;
  by_independence_class: FacetCounts;
}

/** The group of a facet's counts for the records without that field: each facet map sums to `counted`. */
export const NOT_SET = 'not_set';

/**
 * Counts over records. Withdrawn records are counted only in `records` and `withdrawn` (DECISIONS 10). Each
 * facet map lists every value of the vocabulary in the schema's order, zeros included, so that its shape does not
 * change with the records; a value outside the vocabulary (not possible in a valid archive) follows, in code-point
 * order; last comes NOT_SET, the records without the field (no vocabulary has that value). So every facet map sums
 * to `counted`.
 */
export function archiveCounts(records: readonly Record<string, unknown>[]): ArchiveCounts {
  const maps = Object.fromEntries(FACET_NAMES.map((f) => [f, new Map<string, number>(FACETS[f].map((v) => [v, 0]))])) as Record<
    FacetName,
    Map<string, number>
  >;
  const notSet = Object.fromEntries(FACET_NAMES.map((f) => [f, 0])) as Record<FacetName, number>;
  let withdrawn = 0;
  let attestations = 0;
  for (const record of records) {
    if (isWithdrawn(record)) {
      withdrawn++;
      continue;
    }
    if (countsAsAttestation(record)) attestations++;
    for (const facet of FACET_NAMES) {
      const value = facetValueOf(record, facet);
      if (value !== null) maps[facet].set(value, (maps[facet].get(value) ?? 0) + 1);
      else notSet[facet]++;
    }
  }
  const ordered = (facet: FacetName): FacetCounts => {
    const known = new Set<string>(FACETS[facet]);
    const extra = [...maps[facet].keys()].filter((k) => !known.has(k)).sort(compareCodePoints);
    return Object.fromEntries([...[...FACETS[facet], ...extra].map((v) => [v, maps[facet].get(v) ?? 0]), [NOT_SET, notSet[facet]]]);
  };
  return {
    records: records.length,
    withdrawn,
    counted: records.length - withdrawn,
    counts_as_attestation: attestations,
    by_record_kind: ordered('record_kind'),
    by_record_type: ordered('record_type'),
    by_archive_status: ordered('archive_status'),
    by_context_depth: ordered('context_depth'),
    by_assessment_state: ordered('assessment_state'),
    by_verification_level: ordered('verification_level'),
    by_independence_class: ordered('independence_class'),
  };
}
