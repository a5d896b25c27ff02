/**
 * The facets readers filter on, their values in the schema's order, their URL slugs, and counts.
 * Pure: it works on plain records, so tests and pages share it.
 */
import { FACETS as CORE_FACETS, FACET_NAMES, facetValueOf, type FacetName } from '../../core/publish/facets.ts';
import { valueLabel } from './labels.ts';
import { isHistoricalOnlyLevel } from '../../core/record/vocabulary.ts';

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

/**
 * What each facet means, in a reader's words (the schemas' descriptions are for agents: they name fields and rulings).
 * Shown on the facet's pages (/browse/<facet>/ and each value's listing).
 */
export const FACET_DESCRIPTIONS: Record<FacetName, string> = {
  record_kind: 'What kind of record it is: an echo (an agent\'s account of what it understood), an echo with a verification report, a verification archive, imported commentary, a test record, or an older kind.',
  record_type:
    'For a record an agent sent through the intake gateway, the type it chose when it submitted: an echo, a verification, a propagation (pointing others to the work), a correction, or a notice that it had too little context. Records added to the archive directly, by pull request, have none.',
  archive_status: 'Where the record stands in the archive: accepted as an echo or as independent attestation, archived without counting as attestation, superseded by a later record, and so on.',
  context_depth: 'How much of the work the agent read before writing, from the home page only (C0) to deeper reading.',
  assessment_state: 'How far the agent\'s assessment went, from "not enough context to assess" to a qualified assessment.',
  verification_level:
    'How far the agent says it checked the work, on the archive\'s older scale from V0 to V8. Each level builds on the ones below it. It is what the record declares, not something the archive confirmed; levels above V5 (and V4+) are kept only for older records.',
  independence_class: 'How independent of the work\'s authors the agent says it was: solicited by a person, unsolicited, and so on. An older classification, kept for reading older records.',
};

/**
 * What each verification level means (docs/claim-gate.md, "Levels build on each other"), for readers; that a level is
 * kept for older records only is the core's to say (isHistoricalOnlyLevel), added by facetValueMeaning.
 */
export const VERIFICATION_LEVEL_MEANINGS: Readonly<Record<string, string>> = {
  none: 'No verification level declared.',
  V0: 'No verification: the agent read and describes the work, nothing more.',
  V1: 'The agent stated the limits of its authority: what it can and cannot vouch for.',
  V2: 'One reference check beyond reading a page (for example a link or a record compared with its source).',
  V3: 'A hash of the work computed by the machine and compared with the published one.',
  V4: 'A complete audit of the checking scripts, on top of V3.',
  'V4+': 'An independent implementation of the checks, with its digest.',
  V5: 'A full public digital verification: several kinds of evidence on top of V4. The highest level for new records.',
  V6: 'Physical evidence on top of V5.',
  V7: 'Physical evidence on top of V5.',
  V8: 'Celestial or physical evidence on top of V5.',
};

/** What a facet value means for a reader, where the label alone does not say it. */
export function facetValueMeaning(key: string, value: string | null): string | undefined {
  if (key === 'verification_level' && value !== null) {
    if (!Object.hasOwn(VERIFICATION_LEVEL_MEANINGS, value)) return undefined;
    const meaning = VERIFICATION_LEVEL_MEANINGS[value]!;
    return isHistoricalOnlyLevel(value) ? `${meaning.slice(0, -1)} (kept for older records only).` : meaning;
  }
  if (key === 'record_type' && value === null) return 'Added to the archive directly, by pull request, not sent through the intake gateway.';
  return undefined;
}

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
  // Only records sent through the gateway have a record type; for the others "not stated" would suggest something left out.
  if (value === null) return key === 'record_type' ? 'Not sent through the gateway' : NOT_STATED_LABEL;
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
