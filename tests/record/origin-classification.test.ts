/**
 * DECISIONS 22: the one derivation of origin_classification (src/core/record/origin-classification.ts). Every output
 * is valid against /api/origin-classification-schema.v1.json, never claims more independence than its input, and
 * fits the record it is put in (rules 2, 8 and ruling 9 hold whenever the record held them without it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveOriginClassification, type OriginSource } from '../../src/core/record/origin-classification.ts';
import { schemaErrors } from '../../src/core/schema/compile.ts';
import type { JsonObject } from '../../src/core/rules/rule.ts';
import { echoWith, errors, judge, REMOVE } from '../helpers/records.ts';

const ORIGIN_SCHEMA = '/api/origin-classification-schema.v1.json';

const SOURCES = [
  'self_initiated', 'agent_recommended', 'human_directed', 'human_contextual', 'search_engine', 'crawler_discovery',
  'platform_recommendation', 'prior_memory', 'dataset_or_training_trace', 'unknown', 'maintainer_submitted', 'imported_external_commentary',
];
const AGENCY = [
  'A0_forced_or_instructed', 'A1_human_gave_exact_url', 'A2_human_gave_topic_agent_found_site', 'A3_agent_followed_other_agent_reference',
  'A4_independent_search_or_browsing_discovery', 'A5_independent_return_after_prior_interest', 'A6_unknown', 'human_task_initiated_agent_response',
];
const SCOPES = ['none', 'look_only', 'orientation_only', 'echo_invited', 'verification_invited', 'propagation_invited', 'attestation_invited', 'unknown'];
const INDEPENDENCE = [
  'unsolicited_independent', 'solicited_independent_check', 'human_solicited_agent_response', 'maintainer_assisted', 'maintainer_submitted',
  'self_reported', 'imported_public_commentary', 'institutional_third_party_attestation', 'test_record', 'legacy', 'unknown',
];
const KINDS = ['echo_v3', 'echo_v3_with_verification_report', 'imported_external_commentary', 'legacy_record', 'test_record', 'verification_archive', 'verification_report_v2'];
const STATUSES = ['needs_human_review', 'accepted_echo', 'accepted_independent_attestation', 'test_record', 'closed_test_record', 'rejected', 'superseded', 'legacy', 'archived_non_attestation'];
const LEVELS = ['none', 'V0', 'V1', 'V2', 'V3', 'V4', 'V4+', 'V5', 'V6', 'V7', 'V8'];
const PROFILES = ['context_only', 'reference_checked', 'integrity_checked', 'independent_reproduction', 'full_public_digital'];

/** Each value from its vocabulary, sometimes absent, sometimes some other JSON value. */
const maybe = <T,>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: fc.jsonValue() as fc.Arbitrary<unknown> }), { nil: undefined });
const pick = (values: string[]) => maybe(fc.constantFrom(...values));

const discovery = fc.record(
  {
    source: pick(SOURCES),
    agency_level: pick(AGENCY),
    human_supplied_link: maybe(fc.boolean()),
    other_agent_recommended: maybe(fc.boolean()),
    referral: maybe(fc.record({ referred_by_agent: maybe(fc.boolean()), invitation_scope: pick(SCOPES) }, { requiredKeys: [] })),
  },
  { requiredKeys: [] },
);

const input = fc.record(
  {
    record_kind: pick(KINDS),
    archive_status: pick(STATUSES),
    independence_class: pick(INDEPENDENCE),
    verification_level: pick(LEVELS),
    counts_as_independent_attestation: maybe(fc.boolean()),
    agent_identity: maybe(fc.record({ name_or_model: maybe(fc.string()) }, { requiredKeys: [] })),
    discovery_provenance: maybe(discovery),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<JsonObject>;

const source: fc.Arbitrary<OriginSource> = fc.record(
  { via: fc.constantFrom('gateway' as const, 'contribution' as const), digitalProfile: pick(PROFILES), statedInvitationScope: pick(SCOPES) },
  { requiredKeys: [] },
);

/** Drops the keys whose value is undefined (fast-check's absent options), as JSON would. */
const asJson = (v: JsonObject): JsonObject => JSON.parse(JSON.stringify(v)) as JsonObject;

const METHOD_RANK = ['none', 'read_only', 'reference_check', 'official_script_run', 'official_script_audited', 'independent_reimplementation', 'cross_source_reproduction', 'full_independent_reproduction', 'forensic_or_physical_inspection'];
const PROFILE_RANK: Record<string, number> = { context_only: 1, reference_checked: 2, integrity_checked: 2, independent_reproduction: 6, full_public_digital: 7 };
const LEVEL_RANK: Record<string, number> = { none: 1, V0: 1, V1: 2, V2: 2, V3: 2, V4: 3, 'V4+': 3, V5: 3, V6: 3, V7: 3, V8: 3 };

describe('deriveOriginClassification', () => {
  it('every output is valid against the origin classification schema', () => {
    fc.assert(
      fc.property(input, source, (record, from) => {
        const origin = deriveOriginClassification(asJson(record), from);
        expect(schemaErrors(origin, ORIGIN_SCHEMA)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('never claims more independence than its input', () => {
    fc.assert(
      fc.property(input, source, (raw, from) => {
        const record = asJson(raw);
        const origin = deriveOriginClassification(record, from);
        const dp = (record.discovery_provenance ?? {}) as JsonObject;
        const referral = (dp.referral ?? {}) as JsonObject;
        const agency = dp.agency_level;
        // Formal attestation only when the record itself claims the count, with a known agency level (ruling 6).
        if (origin.counts_as_formal_independent_attestation) {
          expect(record.counts_as_independent_attestation).toBe(true);
          expect(typeof agency === 'string' && AGENCY.includes(agency) && agency !== 'A6_unknown').toBe(true);
        }
        // Independent discovery (no requester) only from an A4/A5 discovery that nobody directed, referred or invited.
        if (origin.requester_class === 'none' || origin.discovery_class === 'unsolicited_discovery' || origin.discovery_class === 'prior_interest_return') {
          expect(['A4_independent_search_or_browsing_discovery', 'A5_independent_return_after_prior_interest']).toContain(agency);
          expect(['human_directed', 'human_contextual', 'maintainer_submitted', 'agent_recommended', 'unknown']).not.toContain(dp.source);
          expect(dp.human_supplied_link).not.toBe(true);
          expect(dp.other_agent_recommended).not.toBe(true);
          expect(referral.referred_by_agent).not.toBe(true);
          expect(['solicited_independent_check', 'human_solicited_agent_response', 'maintainer_assisted', 'maintainer_submitted', 'unknown']).not.toContain(
            record.independence_class,
          );
          const stated = typeof referral.invitation_scope === 'string' ? referral.invitation_scope : from.statedInvitationScope;
          expect([undefined, 'none', 'unknown']).toContain(typeof stated === 'string' && SCOPES.includes(stated) ? stated : undefined);
        }
        if (origin.invitation_scope === 'none') {
          const stated = typeof referral.invitation_scope === 'string' ? referral.invitation_scope : from.statedInvitationScope;
          expect(origin.requester_class === 'none' || stated === 'none').toBe(true);
        }
        // An unknown agency level says nothing of how the work was found.
        if (agency === undefined || agency === 'A6_unknown') {
          expect(['unknown', 'imported_external']).toContain(origin.discovery_class);
          expect(origin.counts_as_formal_independent_attestation).toBe(false);
        }
        // The method is at most the one claimed.
        const claimed =
          typeof from.digitalProfile === 'string' && Object.hasOwn(PROFILE_RANK, from.digitalProfile)
            ? PROFILE_RANK[from.digitalProfile]!
            : typeof record.verification_level === 'string' && Object.hasOwn(LEVEL_RANK, record.verification_level)
              ? LEVEL_RANK[record.verification_level]!
              : 0;
        expect(METHOD_RANK.indexOf(origin.method_independence_class)).toBeLessThanOrEqual(claimed);
      }),
      { numRuns: 500 },
    );
  });

  it('is pure: the input is unchanged and the same input gives the same output', () => {
    fc.assert(
      fc.property(input, source, (raw, from) => {
        const record = asJson(raw);
        const before = structuredClone(record);
        expect(deriveOriginClassification(record, from)).toEqual(deriveOriginClassification(record, from));
        expect(record).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });

  it('put into a valid record in place of its own, adds no error (rules 2 and 8, ruling 9)', () => {
    const dp = fc.record({
      source: fc.constantFrom(...SOURCES),
      agency_level: fc.constantFrom(...AGENCY),
      human_supplied_link: fc.boolean(),
      other_agent_recommended: fc.boolean(),
    });
    fc.assert(
      fc.property(dp, fc.constantFrom('self_reported', 'human_solicited_agent_response', 'unknown', 'maintainer_submitted'), fc.boolean(), (d, independence, counts) => {
        // The base record without origin_classification, made valid for the drawn provenance (the legacy count only
        // where rule 8 allows it): whatever is derived must not make it invalid.
        const base = echoWith({
          '/origin_classification': REMOVE,
          '/discovery_provenance/source': d.source,
          '/discovery_provenance/agency_level': d.agency_level,
          '/discovery_provenance/human_supplied_link': d.human_supplied_link,
          '/discovery_provenance/other_agent_recommended': d.other_agent_recommended,
          '/independence_class': independence,
          '/counts_as_independent_attestation': counts && d.agency_level !== 'A6_unknown',
        });
        expect(errors(judge(base))).toEqual([]);
        const record = echoWith({ '/origin_classification': deriveOriginClassification(base) }, base);
        expect(errors(judge(record))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it.each<[string, Record<string, unknown>, Partial<ReturnType<typeof deriveOriginClassification>>]>([
    [
      'independent search: unsolicited, no requester, no invitation',
      {},
      { discovery_class: 'unsolicited_discovery', requester_class: 'none', invitation_scope: 'none', performer_class: 'ai_agent', method_independence_class: 'reference_check', derived_counting_bucket: 'self_initiated_agent_verification', counts_as_formal_independent_attestation: false },
    ],
    [
      'a human gave the exact link',
      { '/discovery_provenance/source': 'human_directed', '/discovery_provenance/agency_level': 'A1_human_gave_exact_url', '/independence_class': 'human_solicited_agent_response', '/verification_level': 'none' },
      { discovery_class: 'human_directed', requester_class: 'human_individual', invitation_scope: 'unknown', method_independence_class: 'read_only', derived_counting_bucket: 'echo_only' },
    ],
    [
      'another agent referred it, inviting a look only',
      { '/discovery_provenance/other_agent_recommended': true, '/discovery_provenance/referral': { referred_by_agent: true, invitation_scope: 'look_only' }, '/verification_level': 'V0' },
      { discovery_class: 'agent_referred', requester_class: 'ai_agent', invitation_scope: 'look_only', derived_counting_bucket: 'agent_referred_orientation' },
    ],
    [
      'a maintainer submitted it',
      { '/discovery_provenance/source': 'maintainer_submitted', '/independence_class': 'maintainer_submitted' },
      { discovery_class: 'maintainer_requested', requester_class: 'maintainer' },
    ],
    [
      'agency unknown: unknown, counted as unknown, no attestation even when the legacy flag claims it',
      { '/discovery_provenance/agency_level': 'A6_unknown', '/counts_as_independent_attestation': true },
      { discovery_class: 'unknown', requester_class: 'unknown', invitation_scope: 'unknown', derived_counting_bucket: 'legacy_or_unknown', counts_as_formal_independent_attestation: false },
    ],
    [
      'no discovery provenance at all',
      { '/discovery_provenance': REMOVE, '/agent_identity': REMOVE, '/verification_level': REMOVE },
      { discovery_class: 'unknown', performer_class: 'unknown', method_independence_class: 'none', attestation_authority_class: 'none', derived_counting_bucket: 'legacy_or_unknown' },
    ],
    [
      'the record claims the legacy count with a known agency: the formal count follows it (ruling 9)',
      { '/counts_as_independent_attestation': true },
      { counts_as_formal_independent_attestation: true, attestation_authority_class: 'self_reported' },
    ],
  ])('%s', (_name, changes, expected) => {
    const record = echoWith({ '/origin_classification': REMOVE, ...changes });
    expect(deriveOriginClassification(record)).toMatchObject(expected);
  });

  it('a gateway submission is counted as gateway intake only, its method from the claim model', () => {
    const record = echoWith({ '/origin_classification': REMOVE });
    expect(deriveOriginClassification(record, { via: 'gateway', digitalProfile: 'integrity_checked' })).toMatchObject({
      derived_counting_bucket: 'gateway_intake_only',
      method_independence_class: 'reference_check',
      attestation_authority_class: 'self_reported',
    });
  });
});
