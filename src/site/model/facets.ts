/**
 * The facets readers filter on, their values in the schema's order, their URL slugs, and counts.
 * Pure: it works on plain records, so tests and pages share it.
 */
import { FACETS as CORE_FACETS, FACET_NAMES, facetValueOf, type FacetName } from '../../core/publish/facets.ts';
import { valueLabel } from './labels.ts';

export interface Facet {
  /** The record field, also the URL segment: /browse/<key>/<value slug>/. */
  key: string;
  label: string;
  /** All values the schema allows, in its order. */
  values: readonly string[];
}

const FACET_LABELS: Record<FacetName, string> = {
  record_kind: 'Record kind',
  record_type: 'Record type',
  archive_status: 'Archive status',
  context_depth: 'Context depth',
  assessment_state: 'Assessment state',
  verification_level: 'Verification level',
  independence_class: 'Independence class',
};

/** The core's facets (the same the public index carries), with the labels readers see. */
export const FACETS: readonly Facet[] = FACET_NAMES.map((key) => ({ key, label: FACET_LABELS[key], values: CORE_FACETS[key] }));

export function facetByKey(key: string): Facet | undefined {
  return FACETS.find((f) => f.key === key);
}

/** Records of kinds that need few fields (legacy_record, verification_report_v2) may leave a facet out. */
export const NOT_STATED_SLUG = 'not-stated';
export const NOT_STATED_LABEL = 'Not stated';

/** A record's value for a facet (the core's reading: record_type comes from extensions.record_chain), or null. */
export function facetValue(record: Readonly<Record<string, unknown>>, key: string): string | null {
  return facetValueOf(record as Record<string, unknown>, key as FacetName);
}

/** URL segment of a facet value. Enum values are [A-Za-z0-9_+-]; `+` becomes `-plus` (V4+ → V4-plus). */
export function valueSlug(value: string | null): string {
  return value === null ? NOT_STATED_SLUG : value.replace(/\+/g, '-plus');
}

export function facetValueLabel(key: string, value: string | null): string {
  // Only record-chain records have a record type; for the others "not stated" would suggest something left out.
  if (value === null) return key === 'record_type' ? 'Not a record-chain record' : NOT_STATED_LABEL;
  return valueLabel(key, value);
}

export interface FacetValueCount {
  value: string | null;
  slug: string;
  label: string;
  count: number;
}

export interface FacetCounts {
  facet: Facet;
  values: FacetValueCount[];
}

/**
 * For each facet, how many of the given records have each value: values in the schema's order, only those that
 * occur, "not stated" last. Every record listed counts (withdrawn ones too: they are listed, marked withdrawn),
 * so each count is exactly the number of records on that facet value's pages.
 */
export function facetCounts(records: readonly Readonly<Record<string, unknown>>[]): FacetCounts[] {
  return FACETS.map((facet) => {
    const counts = new Map<string | null, number>();
    for (const record of records) {
      const value = facetValue(record, facet.key);
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const order = (v: string | null) => (v === null ? Infinity : facet.values.indexOf(v) === -1 ? facet.values.length : facet.values.indexOf(v));
    const values = [...counts]
      .sort(([a], [b]) => order(a) - order(b) || String(a).localeCompare(String(b)))
      .map(([value, count]) => ({ value, slug: valueSlug(value), label: facetValueLabel(facet.key, value), count }));
    return { facet, values };
  });
}

/**
 * Items grouped by their value of one facet (same grouping and slugs as facetCounts), keeping their order. `valueOf`
 * gives an item's value: the facet pages pass the value their record summaries already carry (facetValue, worked out
 * once per record), rather than reading it from the record again for every facet.
 */
export function groupByFacet<T>(items: readonly T[], valueOf: (item: T) => string | null): Map<string, { value: string | null; items: T[] }> {
  const groups = new Map<string, { value: string | null; items: T[] }>();
  for (const item of items) {
    const value = valueOf(item);
    const slug = valueSlug(value);
    let group = groups.get(slug);
    if (!group) groups.set(slug, (group = { value, items: [] }));
    group.items.push(item);
  }
  return groups;
}
