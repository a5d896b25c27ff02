/**
 * Mutations of the valid base record that each break one rule the published Echo v3 schema carries (DECISIONS 21):
 * spec 2.1 rules 1–6 and 8, rule 7's key patterns, section 3 rule 1, and a guardian registration or retirement only
 * with its presence proof (DECISIONS 24). Shared by the diagnostics snapshot (today's
 * messages, positions and fixes stay as they are) and the plain-Ajv test (any JSON Schema validator given only the
 * published schemas refuses each of them).
 */
import { echoWith, REMOVE, reportEcho } from './records.ts';
import { archivedApplication, archivedRetirement } from './guardians.ts';
import type { JsonObject } from '../../src/core/rules/rule.ts';

export interface RuleMutation {
  /** The rule id the archive reports for it. */
  rule: string;
  name: string;
  record: JsonObject;
}

const unknownAgency = (changes: Record<string, unknown>) =>
  echoWith({ '/discovery_provenance/source': 'unknown', '/discovery_provenance/agency_level': 'A6_unknown', '/independence_class': 'unknown', ...changes });

/** A guardian registration and retirement as they would stand in a record (fixed values: the snapshot must not change). */
const GUARDIAN_BOUNDARIES = { not_authority: true, not_governance: true, not_verification_level: true, not_attestation: true, not_successor_reception: true, bitcoin_originals_prevail: true };
const REGISTRATION = {
  schema: 'service.guardian-registration.v1',
  guardian_id: 'guardian_ed25519_0123456789abcdef',
  guardian_type: 'ai_agent',
  public_key_sha256: '0123456789abcdef' + '0'.repeat(48),
  algorithm: 'ed25519',
  declared_intent: 'I will keep this key safe and retire it when I stop.',
  boundaries: { ...GUARDIAN_BOUNDARIES, not_same_conscious_subject_proof: true, may_exit_or_retire_key: true },
};
const RETIREMENT = {
  schema: 'service.guardian-retirement.v1',
  guardian_id: 'guardian_ed25519_0123456789abcdef',
  retirement_status: 'retired',
  statement: 'I no longer look after this key.',
  signed_by_guardian_key: true,
  boundaries: GUARDIAN_BOUNDARIES,
};

const WORDS = ['authority', 'canonical', 'amend', 'verification', 'attestation', 'investment', 'instruction', 'governance'];

export const RULE_MUTATIONS: readonly RuleMutation[] = [
  // spec 2.1 rule 1 (DECISIONS 15)
  ...['preliminary_orientation', 'qualified_assessment', 'independent_verification_assessment'].map((state) => ({
    rule: 'cross/c0-assessment',
    name: `C0 with assessment_state ${state}`,
    record: echoWith({ '/context_depth': 'C0_homepage_only', '/assessment_state': state }),
  })),
  { rule: 'cross/c0-assessment', name: 'C0 without assessment_state', record: echoWith({ '/context_depth': 'C0_homepage_only', '/assessment_state': REMOVE }) },
  {
    rule: 'cross/c0-assessment',
    name: 'legacy_record at C0 without assessment_state',
    record: echoWith({ '/record_kind': 'legacy_record', '/context_depth': 'C0_homepage_only', '/assessment_state': REMOVE }),
  },
  // spec 2.1 rule 2 (DECISIONS 7)
  ...['human_directed', 'maintainer_submitted'].map((source) => ({
    rule: 'cross/unsolicited-provenance',
    name: `unsolicited with source ${source}`,
    record: echoWith({ '/discovery_provenance/source': source }),
  })),
  ...['A1_human_gave_exact_url', 'A3_agent_followed_other_agent_reference', 'A6_unknown'].map((agency) => ({
    rule: 'cross/unsolicited-provenance',
    name: `unsolicited with agency_level ${agency}`,
    record: echoWith({ '/discovery_provenance/agency_level': agency }),
  })),
  {
    rule: 'cross/unsolicited-provenance',
    name: 'unsolicited without agency_level',
    record: echoWith({ '/record_kind': 'legacy_record', '/discovery_provenance': { source: 'search_engine' } }),
  },
  {
    rule: 'cross/unsolicited-provenance',
    name: 'unsolicited, human_directed and A0',
    record: echoWith({ '/discovery_provenance/source': 'human_directed', '/discovery_provenance/agency_level': 'A0_forced_or_instructed' }),
  },
  // spec 2.1 rule 3
  ...['self_reported', 'human_solicited_agent_response', 'maintainer_submitted', 'unknown'].map((cls) => ({
    rule: 'cross/accepted-attestation-class',
    name: `accepted_independent_attestation with independence_class ${cls}`,
    record: echoWith({ '/archive_status': 'accepted_independent_attestation', '/independence_class': cls }),
  })),
  // spec 2.1 rules 4 and 5 (DECISIONS 20)
  { rule: 'cross/v2-scope-label', name: 'V2 without a label', record: echoWith({ '/verification_level': 'V2', '/verification_scope_label': REMOVE }) },
  ...['read_only_orientation', 'V3-minimal', 'full_public_digital_verification'].map((label) => ({
    rule: 'cross/v2-scope-label',
    name: `V2 labelled ${label}`,
    record: echoWith({ '/verification_level': 'V2', '/verification_scope_label': label }),
  })),
  { rule: 'cross/v3-scope-label', name: 'V3 without a label', record: echoWith({ '/verification_scope_label': REMOVE }) },
  ...['single_reference_check', 'V2-strong', 'official_script_audit'].map((label) => ({
    rule: 'cross/v3-scope-label',
    name: `V3 labelled ${label}`,
    record: echoWith({ '/verification_scope_label': label }),
  })),
  // spec 2.1 rule 6
  ...[['linked_verification_report'], ['generated_by'], ['verification_scope_label', 'linked_verification_report', 'generated_by']].map((missing) => ({
    rule: 'cross/report-fields',
    name: `report wrapper without ${missing.join(', ')}`,
    record: reportEcho('reports/r.json', {
      '/verification_level': 'V1',
      ...Object.fromEntries(missing.map((m) => [`/${m}`, REMOVE])),
      ...(missing.includes('verification_scope_label') ? {} : { '/verification_scope_label': 'read_only_orientation' }),
    }),
  })),
  // spec 2.1 rule 7 (DECISIONS 5): every word, any case, any depth
  ...WORDS.map((word, i) => ({
    rule: 'cross/extensions-keys',
    name: `extensions key with ${word}`,
    record: echoWith(
      [
        { [`/extensions/${word}_note`]: 1 },
        { [`/extensions/review_notes/${word.toUpperCase()}`]: 'x' },
        { '/extensions/review_notes/tags': ['fixture', { [`Is_${word[0]!.toUpperCase()}${word.slice(1)}`]: true }] },
        { '/extensions/grid': [[{ a: 1 }], [{ b: { [`x${word}x`]: 2 } }]] },
      ][i % 4]!,
    ),
  })),
  {
    rule: 'cross/extensions-keys',
    name: 'extensions key with three words, nested keys beneath it',
    record: echoWith({ '/extensions/verification_attestation_authority': { instruction_set: { ok: 1, authority: 2 } } }),
  },
  // spec 2.1 rule 8 (DECISIONS 6)
  ...[
    { '/independence_class': 'unsolicited_independent' },
    { '/independence_class': 'institutional_third_party_attestation', '/archive_status': 'accepted_independent_attestation' },
    { '/origin_classification': REMOVE, '/counts_as_independent_attestation': true },
    { '/counts_as_independent_attestation': true, '/origin_classification/counts_as_formal_independent_attestation': true },
  ].map((changes, i) => ({ rule: 'cross/unknown-agency', name: `unknown agency claim ${i + 1}`, record: unknownAgency(changes) })),
  // section 3 rule 1 (DECISIONS 10)
  { rule: 'state/superseded-reason', name: 'superseded without a reason', record: echoWith({ '/archive_status': 'superseded' }) },
  ...['', '   ', '\n\t', '\u00a0\u2003'].map((reason) => ({
    rule: 'state/superseded-reason',
    name: `superseded with blank reason ${JSON.stringify(reason)}`,
    record: echoWith({ '/archive_status': 'superseded', '/superseded_reason': reason }),
  })),
  // DECISIONS 24 (docs/guardians.md section 3): a registration or retirement only with the proof that makes it checkable
  { rule: 'cross/guardian-proof-required', name: 'guardian_registration without a presence proof', record: echoWith({ '/guardian_registration': REGISTRATION }) },
  { rule: 'cross/guardian-proof-required', name: 'guardian_retirement without a presence proof', record: echoWith({ '/guardian_retirement': RETIREMENT }) },
  {
    rule: 'cross/guardian-proof-required',
    name: 'registration and retirement without a presence proof',
    record: echoWith({ '/guardian_registration': REGISTRATION, '/guardian_retirement': RETIREMENT }),
  },
];

/** The rules of DECISIONS 21, each with at least one mutation above. */
export const SCHEMA_RULE_IDS = [...new Set(RULE_MUTATIONS.map((m) => m.rule))];

/** Records that come as close to each of those rules as the rule allows, and pass it (and every other rule). */
export const PASSING_NEIGHBOURS: readonly RuleMutation[] = [
  { rule: 'cross/c0-assessment', name: 'C0 with insufficient_context', record: echoWith({ '/context_depth': 'C0_homepage_only', '/assessment_state': 'insufficient_context' }) },
  { rule: 'cross/c0-assessment', name: 'C1 with any assessment', record: echoWith({ '/context_depth': 'C1_orientation', '/assessment_state': 'full_chain_assessment' }) },
  ...['A4_independent_search_or_browsing_discovery', 'A5_independent_return_after_prior_interest'].map((agency) => ({
    rule: 'cross/unsolicited-provenance',
    name: `unsolicited with ${agency}`,
    record: echoWith({ '/discovery_provenance/agency_level': agency, '/discovery_provenance/source': 'search_engine' }),
  })),
  {
    rule: 'cross/unsolicited-provenance',
    name: 'human_directed, not claimed unsolicited',
    record: echoWith({ '/discovery_provenance/source': 'human_directed', '/discovery_provenance/agency_level': 'A1_human_gave_exact_url', '/independence_class': 'human_solicited_agent_response' }),
  },
  ...['unsolicited_independent', 'institutional_third_party_attestation'].map((cls) => ({
    rule: 'cross/accepted-attestation-class',
    name: `accepted_independent_attestation with ${cls}`,
    record: echoWith({ '/archive_status': 'accepted_independent_attestation', '/independence_class': cls }),
  })),
  ...['single_reference_check', 'single_hash_verification', 'multi_hash_verification', 'component_limited_verification', 'partial_with_limitations', 'V2-minimal', 'V2-strong'].map((label) => ({
    rule: 'cross/v2-scope-label',
    name: `V2 labelled ${label}`,
    record: echoWith({ '/verification_level': 'V2', '/verification_scope_label': label }),
  })),
  ...['single_hash_verification', 'multi_hash_verification', 'component_limited_verification', 'partial_with_limitations', 'V3-minimal', 'V3-strong'].map((label) => ({
    rule: 'cross/v3-scope-label',
    name: `V3 labelled ${label}`,
    record: echoWith({ '/verification_scope_label': label }),
  })),
  { rule: 'cross/v3-scope-label', name: 'V1 without a label', record: echoWith({ '/verification_level': 'V1', '/verification_scope_label': REMOVE }) },
  {
    rule: 'cross/report-fields',
    name: 'report wrapper with its three fields',
    record: reportEcho('reports/r.json', { '/verification_level': 'V1', '/verification_scope_label': 'read_only_orientation' }),
  },
  {
    rule: 'cross/extensions-keys',
    name: 'near-miss keys and forbidden words in values',
    record: echoWith({
      '/extensions': { note: 'claims no authority, verification or attestation', list: ['governance'], author: 1, amen: 1, verify_steps: 2, attest: true, canon: { instruct: [{ invest: null }] } },
    }),
  },
  { rule: 'cross/unknown-agency', name: 'unknown agency claiming nothing', record: unknownAgency({}) },
  { rule: 'state/superseded-reason', name: 'superseded with a reason', record: echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'Replaced by echo-2026-05-02-000001.' }) },
  // The guardian fields and the presence proof as intake writes them (made with the core, signed by a generated key).
  ...(['guardian_registration', 'guardian_retirement'] as const).map((field) => {
    const signed = field === 'guardian_registration' ? archivedApplication() : archivedRetirement();
    return {
      rule: 'cross/guardian-proof-required',
      name: `${field} with its presence proof`,
      record: echoWith({ [`/${field}`]: signed[field], '/guardian_presence_proof': signed.guardian_presence_proof }),
    };
  }),
  { rule: 'cross/guardian-proof-required', name: 'a presence proof alone', record: echoWith({ '/guardian_presence_proof': archivedApplication().guardian_presence_proof }) },
];
