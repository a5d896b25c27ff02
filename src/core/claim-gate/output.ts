/** The Claim Gate output (/api/claim-gate-output-schema.v1.json), as the gate emits it. */
import type { RecordVerificationLevel } from './levels.ts';

export const CLAIM_GATE_OUTPUT_SCHEMA = 'service.claim-gate-output.v1';

/**
 * PASS: everything requested is allowed. PASS_WITH_DOWNGRADE: allowed after the listed downgrades.
 * FAIL_WITH_REASONS: evaluated, but a blocking failure stops any verification claim (allowed level V0).
 * FAIL: the input could not be evaluated at all (not an evidence input); allowed level "none".
 */
export type ClaimGateStatus = 'PASS' | 'PASS_WITH_DOWNGRADE' | 'FAIL' | 'FAIL_WITH_REASONS';

export interface RequiredDowngrade {
  /** What was requested (a level, label or claim in words). */
  from: string;
  /** What may be claimed instead ("not made" for a claim that must be dropped). */
  to: string;
  reason: string;
  /** Id of the gate rule that required it (docs/claim-gate.md lists them). */
  rule: string;
}

export interface ClaimGateOutput {
  schema: typeof CLAIM_GATE_OUTPUT_SCHEMA;
  /** SHA-256 (hex) of the input's RFC 8785 form; null when the input has none (e.g. an unpaired surrogate). */
  input: string | null;
  /** The rules document that ran: its schema, version and the SHA-256 of its RFC 8785 form. */
  rules: { schema: string; version: string; sha256: string };
  status: ClaimGateStatus;
  /** The highest protocol level the agent requested ("none" when it requested none). */
  requested_protocol_level: RecordVerificationLevel;
  /** What the evidence would support, historical-only levels included (information, never an allowance). */
  evidence_supports_protocol_level: RecordVerificationLevel;
  /** The level that may be claimed: at most the request, the evidence, and V5 for new work. */
  allowed_protocol_level: RecordVerificationLevel;
  allowed_protocol_scope_label: string;
  verification_scope_label: string;
  allowed_component_levels: Record<string, string>;
  required_downgrades: RequiredDowngrade[];
  forbidden_claims: string[];
  missing_evidence: string[];
  blocking_failures: string[];
  non_blocking_limitations: string[];
  recommended_record_kind: string;
  can_build_verification_report: boolean;
  can_build_echo_wrapper: boolean;
  boundary: { not_authority: true; not_truth: true; not_attestation: true; non_amending: true; no_claim_beyond_checked_evidence: true };
}

export const OUTPUT_BOUNDARY: ClaimGateOutput['boundary'] = {
  not_authority: true,
  not_truth: true,
  not_attestation: true,
  non_amending: true,
  no_claim_beyond_checked_evidence: true,
};
