/**
 * DECISIONS 22: origin_classification (/api/origin-classification-schema.v1.json) derived from what a record or a
 * submission says of how it came about: discovery provenance (source, agency level, who supplied the link, who
 * recommended it, the referral and its invitation scope), the legacy independence fields, the performer and the
 * method it claims. Where it says nothing, the value is `unknown` (or `none` where the schema has no unknown).
 *
 * One pure function, shared by the tools that make records: a Markdown draft without one (`npm run new --from`,
 * src/core/draft/judge-draft.ts) and `intake accept` (src/intake/to-echo-record.ts). It never claims more than its
 * input: when signals disagree it takes the less independent reading, counts_as_formal_independent_attestation is
 * true only when the record itself claims counts_as_independent_attestation with a known agency level (so ruling 9's
 * equality holds and ruling 6 is never broken by the derivation), and an A6_unknown or missing agency level gives
 * discovery `unknown` with no requester, invitation or attestation claim.
 */
import type { JsonObject } from '../rules/rule.ts';

export const ORIGIN_CLASSIFICATION_SCHEMA = 'service.origin-classification.v1';

export interface OriginClassification {
  schema: typeof ORIGIN_CLASSIFICATION_SCHEMA;
  discovery_class: string;
  invitation_scope: string;
  requester_class: string;
  performer_class: string;
  method_independence_class: string;
  attestation_authority_class: string;
  derived_counting_bucket: string;
  counts_as_formal_independent_attestation: boolean;
  notes: string[];
}

export interface OriginSource {
  /** How the record reached the archive: `gateway` for a record-chain submission accepted by intake. */
  via?: 'gateway' | 'contribution';
  /** The record-chain verification claim's digital_profile, when the submission made one (intake). */
  digitalProfile?: unknown;
  /** The invitation scope the submission's own origin_classification states, used when its discovery provenance has no referral. */
  statedInvitationScope?: unknown;
}

const KNOWN_AGENCY = new Set([
  'A0_forced_or_instructed',
  'A1_human_gave_exact_url',
  'A2_human_gave_topic_agent_found_site',
  'A3_agent_followed_other_agent_reference',
  'A4_independent_search_or_browsing_discovery',
  'A5_independent_return_after_prior_interest',
  'human_task_initiated_agent_response',
]);
const HUMAN_AGENCY = new Set(['A0_forced_or_instructed', 'A1_human_gave_exact_url', 'A2_human_gave_topic_agent_found_site', 'human_task_initiated_agent_response']);
const INDEPENDENT_SOURCES = new Set(['self_initiated', 'search_engine', 'crawler_discovery', 'platform_recommendation']);
const RETURN_SOURCES = new Set([...INDEPENDENT_SOURCES, 'prior_memory', 'dataset_or_training_trace']);
const INVITATION_SCOPES = new Set(['none', 'look_only', 'orientation_only', 'echo_invited', 'verification_invited', 'propagation_invited', 'attestation_invited', 'unknown']);

/** Method independence from the record-chain claim model's digital_profile. */
const METHOD_BY_PROFILE: Record<string, string> = {
  context_only: 'read_only',
  reference_checked: 'reference_check',
  integrity_checked: 'reference_check',
  independent_reproduction: 'cross_source_reproduction',
  full_public_digital: 'full_independent_reproduction',
};
/** Method independence from the historical V scale: at most an official script run (the scale says no more). */
const METHOD_BY_LEVEL: Record<string, string> = {
  none: 'read_only',
  V0: 'read_only',
  V1: 'reference_check',
  V2: 'reference_check',
  V3: 'reference_check',
  V4: 'official_script_run',
  'V4+': 'official_script_run',
  V5: 'official_script_run',
  V6: 'official_script_run',
  V7: 'official_script_run',
  V8: 'official_script_run',
};

const REQUESTER_BY_DISCOVERY: Record<string, string> = {
  unsolicited_discovery: 'none',
  prior_interest_return: 'none',
  agent_referred: 'ai_agent',
  human_directed: 'human_individual',
  human_contextual: 'human_individual',
  maintainer_requested: 'maintainer',
};

const VERIFICATION_BUCKET: Record<string, string> = {
  human_directed: 'human_directed_agent_verification',
  human_contextual: 'human_directed_agent_verification',
  agent_referred: 'agent_referred_agent_verification',
  unsolicited_discovery: 'self_initiated_agent_verification',
  prior_interest_return: 'self_initiated_agent_verification',
};

const NOTE =
  "Derived by the archive's tools from the record's discovery provenance, independence fields and claimed method (DECISIONS 22); unknown where the record says nothing. Classification only: it creates no authority.";

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);

function discoveryClass(record: JsonObject, invited: boolean): string {
  if (record.record_kind === 'imported_external_commentary') return 'imported_external';
  const dp = obj(record.discovery_provenance);
  const source = str(dp?.source);
  const agency = str(dp?.agency_level);
  if (!dp || agency === undefined || !KNOWN_AGENCY.has(agency) || source === undefined || source === 'unknown') return 'unknown';
  const independence = record.independence_class;
  if (source === 'maintainer_submitted' || independence === 'maintainer_submitted' || independence === 'maintainer_assisted') return 'maintainer_requested';
  if (source === 'imported_external_commentary' || independence === 'imported_public_commentary') return 'imported_external';
  if (source === 'human_directed' || dp.human_supplied_link === true || HUMAN_AGENCY.has(agency) || independence === 'human_solicited_agent_response') {
    return 'human_directed';
  }
  if (source === 'human_contextual') return 'human_contextual';
  const referral = obj(dp.referral);
  if (
    source === 'agent_recommended' ||
    agency === 'A3_agent_followed_other_agent_reference' ||
    dp.other_agent_recommended === true ||
    referral?.referred_by_agent === true
  ) {
    return 'agent_referred';
  }
  // Asked for, or not known to be unasked: never read as independent discovery.
  if (invited || independence === 'solicited_independent_check' || independence === 'unknown') return 'unknown';
  if (agency === 'A4_independent_search_or_browsing_discovery' && INDEPENDENT_SOURCES.has(source)) return 'unsolicited_discovery';
  if (agency === 'A5_independent_return_after_prior_interest' && RETURN_SOURCES.has(source)) return 'prior_interest_return';
  if (agency === 'A4_independent_search_or_browsing_discovery' && RETURN_SOURCES.has(source)) return 'prior_interest_return';
  return 'unknown';
}

/** The invitation the record states: its referral's scope, else the one its submission stated. */
function statedInvitation(record: JsonObject, from: OriginSource): string | undefined {
  const referral = obj(obj(record.discovery_provenance)?.referral);
  const scope = str(referral?.invitation_scope) ?? str(from.statedInvitationScope);
  return scope !== undefined && INVITATION_SCOPES.has(scope) ? scope : undefined;
}

function methodClass(record: JsonObject, from: OriginSource): string {
  const profile = str(from.digitalProfile);
  if (profile !== undefined && Object.hasOwn(METHOD_BY_PROFILE, profile)) return METHOD_BY_PROFILE[profile]!;
  const level = str(record.verification_level);
  if (level !== undefined && Object.hasOwn(METHOD_BY_LEVEL, level)) return METHOD_BY_LEVEL[level]!;
  return 'none';
}

function performerClass(record: JsonObject): string {
  if (record.record_kind === 'imported_external_commentary') return 'unknown';
  const name = str(obj(record.agent_identity)?.name_or_model)?.trim();
  return name && name.toLowerCase() !== 'unknown' ? 'ai_agent' : 'unknown';
}

function countingBucket(record: JsonObject, discovery: string, method: string, from: OriginSource): string {
  const status = record.archive_status;
  if (record.record_kind === 'test_record' || status === 'test_record' || status === 'closed_test_record') return 'maintainer_test_record';
  if (status === 'rejected' || status === 'superseded') return 'rejected_or_superseded';
  if (record.record_kind === 'legacy_record' || record.independence_class === 'legacy') return 'legacy_or_unknown';
  if (from.via === 'gateway') return 'gateway_intake_only';
  if (discovery === 'unknown') return 'legacy_or_unknown';
  if (method !== 'none' && method !== 'read_only' && Object.hasOwn(VERIFICATION_BUCKET, discovery)) return VERIFICATION_BUCKET[discovery]!;
  if (discovery === 'agent_referred') return 'agent_referred_orientation';
  return 'echo_only';
}

/**
 * The origin classification of `record` (an Echo v3 record or a draft of one; any JSON value is accepted and read
 * defensively). Pure: the same input gives the same output, and the input is not changed.
 */
export function deriveOriginClassification(record: JsonObject, from: OriginSource = {}): OriginClassification {
  const stated = statedInvitation(record, from);
  const invited = stated !== undefined && stated !== 'none' && stated !== 'unknown';
  const discovery = discoveryClass(record, invited);
  const independent = discovery === 'unsolicited_discovery' || discovery === 'prior_interest_return';
  const invitation = independent ? 'none' : (stated ?? 'unknown');
  const method = methodClass(record, from);
  const agency = str(obj(record.discovery_provenance)?.agency_level);
  const formal = record.counts_as_independent_attestation === true && agency !== undefined && KNOWN_AGENCY.has(agency);
  const selfReported = from.via === 'gateway' || obj(record.agent_identity) !== undefined;
  return {
    schema: ORIGIN_CLASSIFICATION_SCHEMA,
    discovery_class: discovery,
    invitation_scope: invitation,
    requester_class: REQUESTER_BY_DISCOVERY[discovery] ?? 'unknown',
    performer_class: performerClass(record),
    method_independence_class: method,
    attestation_authority_class: selfReported || formal ? 'self_reported' : 'none',
    derived_counting_bucket: countingBucket(record, discovery, method, from),
    counts_as_formal_independent_attestation: formal,
    notes: [NOTE],
  };
}
