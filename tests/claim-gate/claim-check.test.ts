import { describe, expect, it } from 'vitest';
import { claimExceedsGate, gateJudgesScopeLabelAt } from '../../src/core/claim-gate/claim-check.ts';

const gate = { allowed_protocol_level: 'V3', allowed_protocol_scope_label: 'V3-minimal', verification_scope_label: 'single_hash_verification' };

describe('claimExceedsGate', () => {
  it('passes a claim within the gate output', () => {
    expect(claimExceedsGate({ verification_level: 'V3', verification_scope_label: 'V3-minimal' }, gate)).toEqual([]);
    expect(claimExceedsGate({ verification_level: 'V2', verification_scope_label: 'single_reference_check' }, gate)).toEqual([]);
  });

  it('refuses a higher level and, outside V2 and V3, a wider label, each with a reason', () => {
    expect(claimExceedsGate({ verification_level: 'V4' }, gate)).toEqual(['verification_level V4 is higher than the Claim Gate allows (V3)']);
    expect(claimExceedsGate({ verification_scope_label: 'V3-strong' }, gate)[0]).toMatch(/V3-strong is wider than the Claim Gate allows \(V3-minimal \/ single_hash_verification\)/);
    expect(claimExceedsGate({ verification_level: 'V1', verification_scope_label: 'future_capability_reserved' }, { ...gate, allowed_protocol_scope_label: 'future_capability_reserved' })[0]).toMatch(/needs a level no work may claim/);
  });

  it('at V2 and V3 compares the level only: spec 2.1 rules 4 and 5 decide the label (DECISIONS 20)', () => {
    expect(claimExceedsGate({ verification_level: 'V3', verification_scope_label: 'V3-strong' }, gate)).toEqual([]);
    expect(claimExceedsGate({ verification_level: 'V2', verification_scope_label: 'multi_hash_verification' }, { allowed_protocol_level: 'V2', allowed_protocol_scope_label: 'V2-minimal' })).toEqual([]);
    expect(claimExceedsGate({ verification_level: 'V3', verification_scope_label: 'V3-strong' }, { allowed_protocol_level: 'V2' })).toEqual(['verification_level V3 is higher than the Claim Gate allows (V2)']);
    expect(['none', 'V0', 'V1', 'V2', 'V3', 'V4', 'V4+', 'V5', undefined].filter((l) => !gateJudgesScopeLabelAt(l))).toEqual(['V2', 'V3']);
  });

  it('says nothing about what it cannot compare', () => {
    expect(claimExceedsGate({ verification_level: 'V9', verification_scope_label: 'legacy_unlabeled' }, gate)).toEqual([]);
    expect(claimExceedsGate({ verification_level: 'V3' }, {})).toEqual([]);
  });
});
