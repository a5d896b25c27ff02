/**
 * The Claim Gate finding on a record page (src/site/render/record-page/claim-gate.ts, src/core/record/gate-view.ts):
 * the verdict, the allowed level and each downgrade with its reason, next to the submitter's claim, said to be the
 * gate's finding (re-evaluated by the archive, or as the submitter supplied it), never the archive vouching.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical/jcs.ts';
import { evaluateClaimGate } from '../../src/core/claim-gate/index.ts';
import { recordGateView } from '../../src/core/record/gate-view.ts';
import { claimGateSectionText, recordPageMain } from '../helpers/claim-gate-section.ts';
import { hashEvidenceInput } from '../helpers/evidence.ts';
import { echoWith, REMOVE } from '../helpers/records.ts';

type Json = Record<string, unknown>;

const page = (record: Json) => recordPageMain(record);
const gateSection = claimGateSectionText;

const evidenceInput = hashEvidenceInput;

/** An archived record-chain verification as intake writes it: the signed record (with its evidence input) as JCS text. */
function intakeRecord(signed: Json, claimGateOutput?: unknown): Json {
  return echoWith({
    '/verification_level': 'none',
    '/verification_scope_label': REMOVE,
    ...(claimGateOutput !== undefined ? { '/claim_gate_output': claimGateOutput } : {}),
    '/extensions': { record_chain: { record_jcs: canonicalJson(signed) } },
  });
}

describe('the Claim Gate finding on a record page', () => {
  it('is absent for a record without a claim gate output or an evidence input', () => {
    expect(gateSection(page(echoWith({})))).toBeUndefined();
    expect(recordGateView(echoWith({}))).toBeUndefined();
  });

  it('shows a submitted output as the submitter’s account, with each downgrade and its reason, next to the claim', () => {
    const record = echoWith({
      '/verification_level': 'V2',
      '/verification_scope_label': 'single_reference_check',
      '/claim_gate_output': { status: 'passed_with_downgrades', allowed_protocol_level: 'V2', required_downgrades: [{ from_level: 'V3', to_level: 'V2', reason: 'scripts read, not run' }] },
    });
    const text = gateSection(page(record))!;
    expect(text).toContain('As the record states it. The submitter supplied this claim gate output');
    expect(text).toContain('not the archive\'s');
    expect(text).toContain("The submitter's claimverification level V2 · scope single_reference_check");
    expect(text).toContain('Pass with downgrades: a smaller claim may be made PASS_WITH_DOWNGRADE (the record writes passed_with_downgrades)');
    expect(text).toContain('Allowed levelV2');
    expect(text).toContain("The submitter's claim is within what the gate allows.");
    expect(text).toContain('Required downgrades, as the record states themV3 → V2: scripts read, not run');
    expect(text).not.toMatch(/verified by the archive|the archive confirms/i);
  });

  it('says when the claim is above what the gate allows', () => {
    const record = echoWith({ '/claim_gate_output': { status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: 'V2' } });
    expect(gateSection(page(record))).toContain("The submitter's claim is higher than the gate allows.");
  });

  it('holds the scope label to the gate as the validator does: outside V2 and V3 a label wider than the gate allows is above it', () => {
    const record = echoWith({
      '/verification_level': 'V4',
      '/verification_scope_label': 'official_script_audit',
      '/claim_gate_output': { status: 'PASS', allowed_protocol_level: 'V4', allowed_protocol_scope_label: 'official_script_audit_with_limitations' },
    });
    expect(gateSection(page(record))).toContain("The submitter's claim is higher than the gate allows.");
  });

  it('at V2 and V3 holds only the level to the gate, as the validator does (DECISIONS 20)', () => {
    const record = echoWith({
      '/verification_level': 'V3',
      '/verification_scope_label': 'V3-strong',
      '/claim_gate_output': { status: 'PASS', allowed_protocol_level: 'V3', allowed_protocol_scope_label: 'V3-minimal' },
    });
    expect(recordGateView(record)!.claimFit).toBe('within');
    expect(gateSection(page(record))).toContain("The submitter's claim is within what the gate allows.");
  });

  it('re-evaluates a record that carries its evidence input, and says the embedded output agrees', () => {
    const input = evidenceInput('machine');
    const output = evaluateClaimGate(input);
    expect(output.allowed_protocol_level).toBe('V3');
    const signed = { evidence_input: input, claim_gate_output: output, verification_claim: { legacy_v_level: 'V3', digital_profile: 'integrity_checked', coverage_scope: { scope: 'minimal_single_check' } } };
    const view = recordGateView(intakeRecord(signed, output))!;
    expect(view).toMatchObject({ source: 'reevaluated', recordedOutputMatches: true, claimFit: 'within' });
    const text = gateSection(page(intakeRecord(signed, output)))!;
    expect(text).toContain("The archive's Claim Gate ran the published rules");
    expect(text).toContain('it does not vouch for the record');
    expect(text).toContain('identical to this re-evaluation');
    expect(text).toContain('signed claim: legacy V level V3');
    expect(text).toContain('Allowed levelV3');
  });

  it('shows the re-evaluation, not the record’s copy, when they differ, and says so', () => {
    const input = evidenceInput('self_reported');
    const honest = evaluateClaimGate(input);
    expect(honest.allowed_protocol_level).toBe('V2');
    const inflated = { ...honest, status: 'PASS', allowed_protocol_level: 'V3', required_downgrades: [] };
    const signed = { evidence_input: input, claim_gate_output: inflated, verification_claim: { legacy_v_level: 'V3' } };
    const view = recordGateView(intakeRecord(signed, inflated))!;
    expect(view).toMatchObject({ source: 'reevaluated', recordedOutputMatches: false, claimFit: 'above' });
    expect(view.output.allowedLevel).toBe('V2');
    expect(view.output.downgrades.length).toBeGreaterThan(0);
    const text = gateSection(page(intakeRecord(signed, inflated)))!;
    expect(text).toContain('differs from this re-evaluation');
    expect(text).toContain('Allowed levelV2');
    expect(text).toContain("The submitter's claim is higher than the gate allows.");
    for (const d of honest.required_downgrades) expect(text).toContain(d.reason);
  });

  it('says when the record’s output was made under other rules', () => {
    const input = evidenceInput('machine');
    const old = { ...evaluateClaimGate(input), rules: { schema: 'service.claim-gate-rules.v1', version: 'v0', sha256: '0'.repeat(64) } };
    const signed = { evidence_input: input, claim_gate_output: old, verification_claim: { legacy_v_level: 'V3' } };
    expect(recordGateView(intakeRecord(signed, old))).toMatchObject({ recordedOutputMatches: false, recordedUnderOtherRules: true, claimFit: 'within' });
    expect(gateSection(page(intakeRecord(signed, old)))).toContain('was made under other rules');
  });

  it('re-evaluates the evidence input of the report command’s archive pair (extensions.claim_gate)', () => {
    const input = evidenceInput('machine');
    const record = echoWith({ '/claim_gate_output': evaluateClaimGate(input), '/extensions': { claim_gate: { evidence_input_jcs: canonicalJson(input) } } });
    expect(recordGateView(record)).toMatchObject({ source: 'reevaluated', recordedOutputMatches: true });
  });
});
