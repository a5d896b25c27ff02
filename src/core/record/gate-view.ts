/**
 * What a reader is told about a record's Claim Gate output (the record page; docs/claim-gate.md): the gate's
 * finding next to the submitter's claim, and where that finding comes from. A record's claim_gate_output is the
 * submitter's to write; only when the record carries the evidence input it was computed from (a record-chain record
 * whose signed record has `evidence_input`, or the report command's extensions.claim_gate.evidence_input_jcs) can the
 * archive run its own gate again, and then it says whether the two agree. The archive never presents the finding as
 * its own verdict on the record. (The validator does not re-evaluate: a change of the published rules must not make
 * archived records invalid; the page says instead that a record's output was made under other rules.)
 */
import { sameCanonical } from '../canonical/jcs.ts';
import { claimExceedsGate } from '../claim-gate/claim-check.ts';
import { compareLevels } from '../claim-gate/levels.ts';
import { evaluateClaimGate } from '../claim-gate/index.ts';
import { asObject, asString } from '../rules/rule.ts';
import { recordGateOutput, type RecordGateOutput } from './gate-output.ts';

export interface SubmitterClaim {
  /** verification_level of the record (the historical V scale). */
  level?: string;
  scopeLabel?: string;
  /** For a record-chain verification: the signed claim's legacy_v_level, digital_profile and coverage scope. */
  legacyVLevel?: string;
  digitalProfile?: string;
  coverageScope?: string;
}

export interface RecordGateView {
  /** The output shown: the archive's re-evaluation when there is one, else the record's own. */
  output: RecordGateOutput;
  /**
   * reevaluated: the archive's gate ran on the evidence input the record carries when the site was built.
   * submitted: the record's claim_gate_output as the submitter wrote it; the archive could not run the gate (no
   * evidence input in the record).
   */
  source: 'reevaluated' | 'submitted';
  /** With source reevaluated and a claim_gate_output in the record: whether it is byte-for-byte (RFC 8785) the re-evaluation. */
  recordedOutputMatches?: boolean;
  /** When they differ: whether the record's output names other rules (the published rules changed since it was made). */
  recordedUnderOtherRules?: boolean;
  claim: SubmitterClaim;
  /** The submitter's highest stated level against the allowed level: within, above, or not comparable. */
  claimFit: 'within' | 'above' | 'not_comparable';
}


function parsedObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The signed record of a record-chain record (extensions.record_chain.record_jcs), parsed; undefined otherwise. */
function signedRecord(record: Record<string, unknown>): Record<string, unknown> | undefined {
  return parsedObject(asString(asObject(asObject(record.extensions)?.record_chain)?.record_jcs));
}

/**
 * The evidence input a record carries: inside the signed record of a record-chain verification, or as RFC 8785 text
 * in extensions.claim_gate.evidence_input_jcs (the report command's archive pair).
 */
function carriedEvidenceInput(record: Record<string, unknown>, signed = signedRecord(record)): Record<string, unknown> | undefined {
  return asObject(signed?.evidence_input) ?? parsedObject(asString(asObject(asObject(record.extensions)?.claim_gate)?.evidence_input_jcs));
}

export function recordGateView(record: Record<string, unknown>): RecordGateView | undefined {
  const signed = signedRecord(record);
  const evidenceInput = carriedEvidenceInput(record, signed);
  const recorded = asObject(record.claim_gate_output) ?? (signed ? asObject(signed.claim_gate_output) : undefined);
  const signedClaim = signed ? asObject(signed.verification_claim) : undefined;
  const claim: SubmitterClaim = {};
  const put = (key: keyof SubmitterClaim, value: unknown) => {
    const s = asString(value);
    if (s !== undefined) claim[key] = s;
  };
  put('level', record.verification_level);
  put('scopeLabel', record.verification_scope_label);
  put('legacyVLevel', signedClaim?.legacy_v_level);
  put('digitalProfile', signedClaim?.digital_profile);
  put('coverageScope', asObject(signedClaim?.coverage_scope)?.scope);

  let output: RecordGateOutput | undefined;
  let source: RecordGateView['source'] = 'submitted';
  let recordedOutputMatches: boolean | undefined;
  let recordedUnderOtherRules: boolean | undefined;
  if (evidenceInput) {
    const rerun = evaluateClaimGate(evidenceInput);
    output = recordGateOutput({ claim_gate_output: rerun });
    source = 'reevaluated';
    if (recorded) {
      recordedOutputMatches = sameCanonical(recorded, rerun);
      if (!recordedOutputMatches) recordedUnderOtherRules = !sameCanonical(recorded.rules, rerun.rules);
    }
  } else if (recorded) {
    output = recordGateOutput({ claim_gate_output: recorded });
  }
  if (!output) return undefined;

  // Each level the submitter states, in either place, with its scope label, held to the gate by the same check the
  // archive validator runs (claimExceedsGate; at V2 and V3 the level only, DECISIONS 20), so the page never calls
  // "within" what cross/claim-gate-level refuses, nor "above" what it accepts.
  const stated = [claim.level, claim.legacyVLevel].filter((l): l is string => l !== undefined);
  const allowance = { allowed_protocol_level: output.allowedLevel, verification_scope_label: output.allowedScopeLabel };
  const claimFit =
    output.allowedLevel === undefined || stated.length === 0 || stated.some((l) => compareLevels(l, output.allowedLevel) === undefined)
      ? 'not_comparable'
      : stated.some((l) => claimExceedsGate({ verification_level: l, verification_scope_label: claim.scopeLabel }, allowance).length > 0)
        ? 'above'
        : 'within';
  return {
    output,
    source,
    ...(recordedOutputMatches !== undefined ? { recordedOutputMatches } : {}),
    ...(recordedUnderOtherRules !== undefined ? { recordedUnderOtherRules } : {}),
    claim,
    claimFit,
  };
}
