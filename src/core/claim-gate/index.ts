/**
 * The Claim Gate (spec 1.5, 2.2): a pure function from an evidence input to a claim gate output. It runs the
 * published rules document (documents/claim-gate-rules.json) through the rules of rules/, in order; it keeps or
 * lowers what the agent requested, never raises it, and says why for every downgrade. Deterministic: the same
 * input and rules give the same output, byte for byte in RFC 8785 form. It never throws: input it cannot
 * evaluate gives status FAIL with the reasons in blocking_failures.
 */
import { canonicalJson } from '../canonical/jcs.ts';
import { canonicalSha256, sha256Hex } from '../crypto/sha256.ts';
import { compileRulesDocument, EvidenceView } from './conditions.ts';
import { inputProblems } from './input.ts';
import { CLAIM_GATE_OUTPUT_SCHEMA, OUTPUT_BOUNDARY, type ClaimGateOutput, type ClaimGateStatus } from './output.ts';
import { readRequested } from './requested.ts';
import { PUBLISHED_CLAIM_GATE_RULES, type ClaimGateRules } from './rules-document.ts';
import { gateRules } from './rules/index.ts';
import type { GateState } from './state.ts';

export type { ClaimGateOutput, ClaimGateStatus, RequiredDowngrade } from './output.ts';
export type { ClaimGateRules } from './rules-document.ts';
export { PUBLISHED_CLAIM_GATE_RULES } from './rules-document.ts';
export { gateFindings } from './findings.ts';
export { gateRules } from './rules/index.ts';
export { INPUT_SCHEMA_RULE, INPUT_SCHEMA_SUMMARY } from './input.ts';
export { claimExceedsGate, gateJudgesScopeLabelAt, levelExceedsGate, scopeLabelExceedsGate, type StatedClaim, type GateAllowance } from './claim-check.ts';

// The rules document's identity, hashed once per document object (the gate runs it for every evaluation).
const rulesIdentity = new WeakMap<ClaimGateRules, ClaimGateOutput['rules']>();
function identityOf(rules: ClaimGateRules): ClaimGateOutput['rules'] {
  let id = rulesIdentity.get(rules);
  if (!id) {
    id = { schema: String(rules.schema), version: String(rules.version), sha256: canonicalSha256(rules) };
    rulesIdentity.set(rules, id);
  }
  return id;
}

/** The input's RFC 8785 form, or undefined when it has none (e.g. an unpaired surrogate; gate/input-schema says why). */
function canonicalOrUndefined(input: unknown): string | undefined {
  try {
    return canonicalJson(input);
  } catch {
    return undefined;
  }
}

function failed(inputSha256: string | null, rules: ClaimGateRules, reasons: string[]): ClaimGateOutput {
  return {
    schema: CLAIM_GATE_OUTPUT_SCHEMA,
    input: inputSha256,
    rules: identityOf(rules),
    status: 'FAIL',
    requested_protocol_level: 'none',
    evidence_supports_protocol_level: 'none',
    allowed_protocol_level: 'none',
    allowed_protocol_scope_label: 'none',
    verification_scope_label: 'none',
    allowed_component_levels: {},
    required_downgrades: [],
    forbidden_claims: [],
    missing_evidence: [],
    blocking_failures: reasons,
    non_blocking_limitations: [],
    recommended_record_kind: rules.record_kinds?.when_blocked ?? 'echo_v3',
    can_build_verification_report: false,
    can_build_echo_wrapper: false,
    boundary: { ...OUTPUT_BOUNDARY },
  };
}

function statusOf(state: GateState): ClaimGateStatus {
  if (state.blocking.length > 0) return 'FAIL_WITH_REASONS';
  return state.downgrades.length > 0 ? 'PASS_WITH_DOWNGRADE' : 'PASS';
}

/** Evaluates one evidence input under `rules` (the published rules document by default). */
export function evaluateClaimGate(input: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): ClaimGateOutput {
  const canonical = canonicalOrUndefined(input);
  const inputSha256 = canonical === undefined ? null : sha256Hex(canonical);
  try {
    const problems = inputProblems(input, canonical);
    if (problems.length > 0) return failed(inputSha256, rules, problems);
    compileRulesDocument(rules);
    const evidenceInput = input as Record<string, unknown>;
    const state: GateState = {
      rules,
      input: evidenceInput,
      view: new EvidenceView(evidenceInput, rules),
      requested: readRequested(evidenceInput.claims_requested_by_agent, rules),
      supported: 'V0',
      allowed: 'V0',
      scopeLabel: 'V0',
      verificationScopeLabel: 'read_only_orientation',
      components: {},
      downgrades: [],
      forbidden: [],
      missing: [],
      blocking: [],
      limitations: [],
      recordKind: rules.record_kinds.when_blocked,
      canBuildReport: false,
      canBuildWrapper: false,
    };
    for (const rule of gateRules) rule.apply(state);
    return {
      schema: CLAIM_GATE_OUTPUT_SCHEMA,
      input: inputSha256,
      rules: identityOf(rules),
      status: statusOf(state),
      requested_protocol_level: state.requested.level,
      evidence_supports_protocol_level: state.supported,
      allowed_protocol_level: state.allowed,
      allowed_protocol_scope_label: state.scopeLabel,
      verification_scope_label: state.verificationScopeLabel,
      allowed_component_levels: state.components,
      required_downgrades: state.downgrades,
      forbidden_claims: state.forbidden,
      missing_evidence: state.missing,
      blocking_failures: state.blocking,
      non_blocking_limitations: state.limitations,
      recommended_record_kind: state.recordKind,
      can_build_verification_report: state.canBuildReport,
      can_build_echo_wrapper: state.canBuildWrapper,
      boundary: { ...OUTPUT_BOUNDARY },
    };
  } catch (error) {
    // JSON can nest deeper than a recursive check can follow (a stack overflow), or the rules document is malformed:
    // either way the answer is FAIL with the reason, never a throw.
    const reason = error instanceof RangeError
      ? 'the input is nested too deeply to be evaluated'
      : `the rules document could not be run: ${error instanceof Error ? error.message : String(error)}`;
    return failed(inputSha256, rules, [reason]);
  }
}
