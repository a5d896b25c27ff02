/**
 * The Claim Gate where a claim is judged (issue 13, "everywhere a claim is judged, the same gate"): a verification
 * record that carries an `evidence_input` is re-evaluated by the core's gate, and the submission is refused when its
 * stated claim exceeds what the gate allows or its embedded `claim_gate_output` is not the gate's own answer. One
 * function for the builder (`doctor`, `report` before it writes), the gateway (preflight and submit) and intake
 * review, through the chain rule chain/claim-gate and checkSubmission.
 *
 * What is compared: the whole output, as RFC 8785 text (the gate is a pure function of the input and the rules, so
 * the same input and rules give the same bytes); verification_claim.legacy_v_level against allowed_protocol_level;
 * generated_by's validation_result and hashes against the run. What cannot be checked here: that the submitter's
 * files hash to the values in the evidence input (the gateway does not have the files; docs/claim-gate.md).
 */
import { sameCanonical } from '../canonical/jcs.ts';
import { claimExceedsGate } from '../claim-gate/claim-check.ts';
import { evaluateClaimGate, gateFindings } from '../claim-gate/index.ts';
import type { ClaimGateOutput } from '../claim-gate/output.ts';
import { canonicalSha256 } from '../crypto/sha256.ts';
import type { Finding } from '../diagnostics/diagnostic.ts';
import { asObject, asString, violation } from '../rules/rule.ts';

export const CLAIM_GATE_RULE_ID = 'chain/claim-gate';

export interface SubmissionGateJudgement {
  /** The gate's output, re-evaluated from the record's evidence_input by this core. */
  output: ClaimGateOutput;
  /** The gate's findings in plain words (its downgrades, missing evidence, blocking failures). */
  reasons: string[];
  /** What the submission claims beyond the gate, or how its embedded output or generated_by differs (pointers under /record). */
  findings: Finding[];
}

/** "sha256:<hex of the RFC 8785 form>", how generated_by names the evidence input and the gate output it was built from. */
export function canonicalHashRef(value: unknown): string | undefined {
  try {
    return `sha256:${canonicalSha256(value)}`;
  } catch {
    return undefined; // no canonical form (an unpaired surrogate): chain/content-hash says why
  }
}

/** PASS and PASS_WITH_DOWNGRADE: the report validated; FAIL and FAIL_WITH_REASONS: it did not (spec 3's PASS/FAIL). */
export function validationResultOf(output: Pick<ClaimGateOutput, 'status'>): 'PASS' | 'FAIL' {
  return output.status.startsWith('PASS') ? 'PASS' : 'FAIL';
}

function reasonsSentence(reasons: readonly string[]): string {
  return reasons.length > 0 ? ` The gate's reasons: ${reasons.join(' ')}` : '';
}

const judged = new WeakMap<object, SubmissionGateJudgement>();

/**
 * The gate's judgement of a verification record that carries an evidence input (undefined for any other record):
 * memoised per record object, so the chain rule and the caller that reports the gate's answer run the gate once.
 */
export function judgeSubmissionClaim(record: Record<string, unknown>): SubmissionGateJudgement | undefined {
  const evidenceInput = asObject(record.evidence_input);
  if (!evidenceInput) return undefined;
  const cached = judged.get(record);
  if (cached) return cached;

  const output = evaluateClaimGate(evidenceInput);
  const reasons = gateFindings(output);
  const because = reasonsSentence(reasons);
  const findings: Finding[] = [];
  const id = CLAIM_GATE_RULE_ID;

  const embedded = record.claim_gate_output;
  if (asObject(embedded) && !sameCanonical(embedded, output)) {
    const e = asObject(embedded)!;
    const differs = [...new Set([...Object.keys(e), ...Object.keys(output)])]
      .filter((k) => !sameCanonical(e[k], (output as unknown as Record<string, unknown>)[k]))
      .sort();
    findings.push(
      violation(
        id,
        '/record/claim_gate_output',
        `claim_gate_output is not what the Claim Gate answers for this evidence_input (it differs in ${differs.join(', ')}): re-evaluated, the gate gives status ${output.status} and allowed level ${output.allowed_protocol_level}.${because}`,
        'Do not edit claim_gate_output by hand: build the submission with the builder\'s report command, which embeds the gate\'s own output (if you changed the evidence input, run claim-gate and report again).',
      ),
    );
  }

  const claim = asObject(record.verification_claim);
  const level = asString(claim?.legacy_v_level);
  for (const reason of claimExceedsGate({ verification_level: level }, output)) {
    findings.push(
      violation(
        id,
        '/record/verification_claim/legacy_v_level',
        `legacy_v_level: ${reason} for this evidence (status ${output.status}).${because}`,
        output.allowed_protocol_level === 'none'
          ? 'The gate allows no level for this evidence: remove legacy_v_level (and make no strict evidence claim), or fix the evidence input and run report again.'
          : `Claim "${output.allowed_protocol_level}" or less (report --legacy-v-level ${output.allowed_protocol_level}), or supply the evidence the gate names as missing and run evidence, claim-gate and report again.`,
      ),
    );
  }

  const generatedBy = asObject(record.generated_by);
  if (generatedBy) {
    const result = asString(generatedBy.validation_result);
    const expected = validationResultOf(output);
    if (result !== undefined && result !== expected) {
      findings.push(
        violation(
          id,
          '/record/generated_by/validation_result',
          result === 'NOT_RUN'
            ? 'generated_by.validation_result is NOT_RUN, but the record carries an evidence input and a claim gate output: the gate was run'
            : `generated_by.validation_result is ${result}, but the Claim Gate's status for this evidence_input is ${output.status} (${expected})`,
          `Write ${expected}: PASS when the gate passes (with or without downgrades), FAIL when it fails. The report command fills it from the run.`,
        ),
      );
    }
    const refs: Array<[field: 'evidence_input' | 'claim_gate_output', value: unknown]> = [
      ['evidence_input', evidenceInput],
      ['claim_gate_output', embedded],
    ];
    for (const [field, value] of refs) {
      const stated = asString(generatedBy[field]);
      const actual = canonicalHashRef(value);
      if (stated === undefined || actual === undefined || stated === actual || !stated.startsWith('sha256:')) continue;
      findings.push(
        violation(
          id,
          `/record/generated_by/${field}`,
          `generated_by.${field} names ${stated}, but the record's ${field} hashes to ${actual} (SHA-256 of its RFC 8785 form)`,
          `generated_by must name the ${field.replace(/_/g, ' ')} the report was built from: write ${actual}, or build the submission again with the report command.`,
        ),
      );
    }
  }

  const judgement = { output, reasons, findings };
  judged.set(record, judgement);
  return judgement;
}
