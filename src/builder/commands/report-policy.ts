/**
 * The published report-builder policy (documents/report-builder-policy.json, /api/report-builder-policy.json) as the
 * report command runs it: its `rules` flags decide what the report does with the gate's output, so the published
 * policy and the executed one cannot drift (tests/builder/report-policy.test.ts holds every flag to a behaviour).
 */
import policy from '../../../documents/report-builder-policy.json' with { type: 'json' };
import type { ClaimGateOutput } from '../../core/claim-gate/output.ts';
import type { JsonObject } from '../../core/record-chain/index.ts';

export type ReportPolicyRules = Readonly<Record<string, boolean>>;

export const REPORT_POLICY_RULES: ReportPolicyRules = policy.rules;

/** Flags the report command always follows (it cannot be told otherwise): a policy that sets one false is refused by the test. */
export const ALWAYS_APPLIED_RULES = [
  'must_call_claim_gate_first',
  'use_allowed_levels_not_agent_requested',
  'claim_never_exceeds_gate_output',
  'historical_only_levels_never_declared_for_new_work',
  'embed_evidence_input_and_gate_output_for_re_evaluation',
  'verification_scope_label_derived_from_gate_output',
] as const;

/** Flags read from the policy on each run (buildRefusal, completeClaim). */
export const POLICY_READ_RULES = ['refuse_build_on_blocking_failures', 'include_all_downgrades_in_limitations', 'keep_input_limitations', 'include_claims_not_made'] as const;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : []);

/** The blocking failures that stop a build, when the policy says so ([] = build). */
export function buildRefusal(output: ClaimGateOutput, rules: ReportPolicyRules = REPORT_POLICY_RULES): string[] {
  return rules.refuse_build_on_blocking_failures ? output.blocking_failures : [];
}

/**
 * The claim's limitations and claims not made, completed from the run as the policy says: the evidence input's
 * limitations, every downgrade with its reason, and the gate's forbidden claims as claims not made. The submitter's
 * own entries come first; nothing is repeated.
 */
export function completeClaim(claim: JsonObject, evidenceInput: JsonObject, output: ClaimGateOutput, rules: ReportPolicyRules = REPORT_POLICY_RULES): void {
  const limitations = strings(claim.limitations);
  if (rules.keep_input_limitations) limitations.push(...strings(evidenceInput.limitations));
  if (rules.include_all_downgrades_in_limitations) {
    limitations.push(...output.required_downgrades.map((d) => `Claim Gate downgrade ${d.from} → ${d.to}: ${d.reason} (${d.rule})`));
  }
  claim.limitations = [...new Set(limitations)];
  const notMade = strings(claim.claims_not_made);
  if (rules.include_claims_not_made) notMade.push(...output.forbidden_claims.map((c) => `Not claimed (the Claim Gate forbids it): ${c}`));
  claim.claims_not_made = [...new Set(notMade)];
}
