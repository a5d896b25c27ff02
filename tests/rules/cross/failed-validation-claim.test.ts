import { describe, expect, it } from 'vitest';
import { failedValidationClaim } from '../../../src/core/rules/cross/failed-validation-claim.ts';
import { echoWith, errors, judge, ofRule, otherThan } from '../../helpers/records.ts';

const RULE = 'cross/failed-validation-claim';

const GENERATED_BY = {
  builder_version: 'echo-archive-record-chain-builder 0.1.0',
  claim_gate_output: 'sha256:' + 'a'.repeat(64),
  evidence_input: 'sha256:' + 'b'.repeat(64),
  generated_at_utc: '2026-11-24T06:00:00Z',
  validation_command: 'node record-chain-builder.mjs report --input evidence.json',
  validation_result: 'FAIL',
};

describe(RULE, () => {
  it('is the module of that id', () => expect(failedValidationClaim.id).toBe(RULE));

  it('refuses a verification claim (V2 and up) under a FAIL result with no gate level', () => {
    const diags = judge(echoWith({ '/generated_by': GENERATED_BY }));
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: '/verification_level' });
    expect(found[0]!.message).toBe(
      'verification_level "V3" is a verification claim, but generated_by.validation_result is FAIL and the record has no claim gate level that allows it',
    );
    expect(found[0]!.hint).toMatch(/lower verification_level to V1 or below/);
  });

  it('passes V1 and below under FAIL', () => {
    for (const level of ['none', 'V0', 'V1']) {
      const diags = judge(echoWith({ '/generated_by': GENERATED_BY, '/verification_level': level, '/verification_scope_label': 'authority_boundary_recognition' }));
      expect(ofRule(diags, RULE)).toEqual([]);
    }
  });

  it('passes the same claim when validation PASSed', () => {
    expect(ofRule(judge(echoWith({ '/generated_by': { ...GENERATED_BY, validation_result: 'PASS' } })), RULE)).toEqual([]);
  });

  it('leaves a FAIL record with a gate level to cross/claim-gate-level (one finding, not two)', () => {
    const diags = judge(echoWith({ '/generated_by': GENERATED_BY, '/claim_gate_output': { allowed_protocol_level: 'V2' } }));
    expect(ofRule(diags, RULE)).toEqual([]);
    expect(ofRule(diags, 'cross/claim-gate-level').map((d) => d.pointer)).toContain('/verification_level');
  });
});
