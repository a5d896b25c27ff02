/**
 * chain/claim-gate (src/core/record-chain/claim-gate.ts): a verification record that carries an evidence input is
 * judged by the Claim Gate again. A failing and a passing case for each thing it checks.
 */
import { describe, expect, it } from 'vitest';
import { evaluateClaimGate } from '../../src/core/claim-gate/index.ts';
import { canonicalHashRef, judgeSubmissionClaim, validationResultOf, type JsonObject } from '../../src/core/record-chain/index.ts';
import { hashEvidenceInput } from '../helpers/evidence.ts';
import { claim, record, submission, validate } from './helpers.ts';

const RULE = 'chain/claim-gate';
const evidenceInput = hashEvidenceInput;

/** A verification record as report builds it from `input`, with `changes` after. */
function strictRecord(input: JsonObject, level: string | undefined, changes: (r: JsonObject) => void = () => {}): JsonObject {
  const output = evaluateClaimGate(input);
  const c = claim();
  if (level === undefined) delete c.legacy_v_level;
  else c.legacy_v_level = level;
  const r = record('verification', {
    verification_claim: c,
    evidence_input: input,
    claim_gate_output: output as unknown as JsonObject,
    generated_by: {
      builder_version: 'echo-archive-record-chain-builder 0.1.0',
      evidence_input: canonicalHashRef(input)!,
      claim_gate_output: canonicalHashRef(output)!,
      generated_at_utc: '2026-11-24T06:00:00Z',
      validation_command: 'node record-chain-builder.mjs claim-gate --input evidence.json',
      validation_result: validationResultOf(output),
    },
  });
  changes(r);
  return r;
}

function gateFindings(r: JsonObject) {
  return validate(submission('verification', r)).diagnostics.filter((d) => d.rule === RULE);
}

describe(RULE, () => {
  it('passes a submission built as report builds it, at the allowed level or below', () => {
    expect(validate(submission('verification', strictRecord(evidenceInput(), 'V3'))).valid).toBe(true);
    expect(validate(submission('verification', strictRecord(evidenceInput(), 'V1'))).valid).toBe(true);
    expect(validate(submission('verification', strictRecord(evidenceInput(), undefined))).valid).toBe(true);
  });

  it('does not apply to a verification without an evidence input (the gate is not mandatory, spec 1.5)', () => {
    expect(judgeSubmissionClaim(record('verification'))).toBeUndefined();
    expect(validate(submission('verification')).valid).toBe(true);
  });

  it('refuses legacy_v_level above the re-evaluated level, with the gate’s reasons', () => {
    const found = gateFindings(strictRecord(evidenceInput('self_reported'), 'V3'));
    expect(found).toHaveLength(1);
    expect(found[0]!.pointer).toBe('/record/verification_claim/legacy_v_level');
    expect(found[0]!.message).toMatch(/^legacy_v_level: verification_level V3 is higher than the Claim Gate allows \(V2\) for this evidence \(status PASS_WITH_DOWNGRADE\)\. The gate's reasons: /);
    expect(found[0]!.message).toContain('[gate/protocol-level]');
    expect(found[0]!.hint).toContain('report --legacy-v-level V2');
  });

  it('refuses any claim when the gate fails, e.g. a hash that does not match', () => {
    const input = evidenceInput('machine', 'e'.repeat(64));
    expect(evaluateClaimGate(input).status).toBe('FAIL_WITH_REASONS');
    const found = gateFindings(strictRecord(input, 'V2'));
    expect(found.map((f) => f.pointer)).toEqual(['/record/verification_claim/legacy_v_level']);
    expect(strictRecord(input, undefined).generated_by).toMatchObject({ validation_result: 'FAIL' });
    expect(gateFindings(strictRecord(input, 'V0'))).toEqual([]);
  });

  it('refuses an embedded output that is not the gate’s answer, naming what differs', () => {
    const found = gateFindings(
      strictRecord(evidenceInput('self_reported'), 'V2', (r) => {
        const out = r.claim_gate_output as JsonObject;
        r.claim_gate_output = { ...out, allowed_protocol_level: 'V3', required_downgrades: [] };
      }),
    );
    expect(found.map((f) => f.pointer)).toContain('/record/claim_gate_output');
    expect(found.find((f) => f.pointer === '/record/claim_gate_output')!.message).toMatch(
      /^claim_gate_output is not what the Claim Gate answers for this evidence_input \(it differs in allowed_protocol_level, required_downgrades\): re-evaluated, the gate gives status PASS_WITH_DOWNGRADE and allowed level V2\./,
    );
  });

  it('refuses an output made under other rules (its rules hash differs)', () => {
    const found = gateFindings(
      strictRecord(evidenceInput(), 'V3', (r) => {
        const out = r.claim_gate_output as JsonObject;
        r.claim_gate_output = { ...out, rules: { ...(out.rules as JsonObject), sha256: '0'.repeat(64) } };
      }),
    );
    expect(found.find((f) => f.pointer === '/record/claim_gate_output')!.message).toContain('(it differs in rules)');
  });

  it('holds generated_by to the run: validation_result and the sha256 of both documents', () => {
    const notRun = gateFindings(strictRecord(evidenceInput(), 'V3', (r) => ((r.generated_by as JsonObject).validation_result = 'NOT_RUN')));
    expect(notRun.map((f) => f.message)).toEqual([
      'generated_by.validation_result is NOT_RUN, but the record carries an evidence input and a claim gate output: the gate was run',
    ]);
    const fail = gateFindings(strictRecord(evidenceInput(), 'V3', (r) => ((r.generated_by as JsonObject).validation_result = 'FAIL')));
    expect(fail[0]!.message).toBe("generated_by.validation_result is FAIL, but the Claim Gate's status for this evidence_input is PASS (PASS)");
    const wrongHash = gateFindings(strictRecord(evidenceInput(), 'V3', (r) => ((r.generated_by as JsonObject).evidence_input = `sha256:${'0'.repeat(64)}`)));
    expect(wrongHash.map((f) => f.pointer)).toEqual(['/record/generated_by/evidence_input']);
    // A path instead of a hash is not checked (the schema allows "a path, URL or SHA-256").
    expect(gateFindings(strictRecord(evidenceInput(), 'V3', (r) => ((r.generated_by as JsonObject).evidence_input = 'evidence.json')))).toEqual([]);
  });

  it('needs the whole strict claim together (the schema’s dependentRequired)', () => {
    const r = strictRecord(evidenceInput(), 'V3', (x) => {
      delete x.claim_gate_output;
    });
    const result = validate(submission('verification', r));
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => d.rule)).toContain('schema/dependent-required');
  });
});
