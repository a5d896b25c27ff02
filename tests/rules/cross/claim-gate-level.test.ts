import { describe, expect, it } from 'vitest';
import { claimGateLevel } from '../../../src/core/rules/cross/claim-gate-level.ts';
import { echoWith, errors, judge, ofRule, otherThan, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/claim-gate-level';

// The base record claims V3 with verification_scope_label multi_hash_verification.
const DOWNGRADE = { from: 'V3', to: 'V2', reason: 'the only hash entry was typed by hand, not computed', rule: 'hash/self-reported' };

describe(RULE, () => {
  it('is the module of that id', () => expect(claimGateLevel.id).toBe(RULE));

  it('passes a record that claims what its gate output allows', () => {
    const diags = judge(echoWith({ '/claim_gate_output': { status: 'PASS', allowed_protocol_level: 'V3', required_downgrades: [] } }));
    expect(errors(diags)).toEqual([]);
  });

  it('passes a record that claims less than its gate output allows', () => {
    const diags = judge(
      echoWith({ '/verification_level': 'V2', '/verification_scope_label': 'single_reference_check', '/claim_gate_output': { allowed_protocol_level: 'V5' } }),
    );
    expect(ofRule(diags, RULE)).toEqual([]);
  });

  it('does not apply without a gate output (absent or null)', () => {
    expect(ofRule(judge(echoWith({ '/claim_gate_output': REMOVE })), RULE)).toEqual([]);
    expect(ofRule(judge(echoWith({ '/claim_gate_output': null })), RULE)).toEqual([]);
  });

  it('refuses a verification_level above allowed_protocol_level, quoting the gate’s reasons', () => {
    const record = echoWith({
      '/verification_scope_label': 'component_limited_verification',
      '/claim_gate_output': { status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: 'V2', required_downgrades: [DOWNGRADE] },
    });
    const diags = judge(record);
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: '/verification_level', line: 13 });
    expect(found[0]!.message).toBe(
      'verification_level V3 is higher than the Claim Gate allows (V2) (claim_gate_output.allowed_protocol_level): its downgrades reduce the claim that may be made (spec 7). ' +
        "The gate's downgrades: V3 → V2: the only hash entry was typed by hand, not computed (hash/self-reported).",
    );
    expect(found[0]!.hint).toMatch(/^Lower verification_level to "V2" or below/);
  });

  it('reads the older from_level/to_level downgrade shape too', () => {
    const record = echoWith({
      '/verification_level': 'V4',
      '/verification_scope_label': 'official_script_audit',
      '/claim_gate_output': { allowed_protocol_level: 'V3', required_downgrades: [{ from_level: 'V4', to_level: 'V3', reason: 'scripts read, not run' }] },
    });
    const found = ofRule(judge(record), RULE);
    expect(found.map((d) => d.pointer)).toEqual(['/verification_level', '/verification_scope_label']);
    expect(found[0]!.message).toContain('V4 → V3: scripts read, not run');
  });

  it('orders historical levels as the rules document does (V4+ is above V4)', () => {
    const record = echoWith({
      '/verification_level': 'V4+',
      '/verification_scope_label': 'official_script_audit',
      '/claim_gate_output': { allowed_protocol_level: 'V4' },
    });
    expect(ofRule(judge(record), RULE).map((d) => d.pointer)).toEqual(['/verification_level']);
  });

  it('refuses a scope label wider than the gate’s own label', () => {
    const record = echoWith({
      '/verification_scope_label': 'V3-strong',
      '/claim_gate_output': { allowed_protocol_level: 'V3', allowed_protocol_scope_label: 'V3-minimal' },
    });
    const found = ofRule(judge(record), RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ pointer: '/verification_scope_label', severity: 'error' });
    expect(found[0]!.message).toBe('verification_scope_label V3-strong is wider than the Claim Gate allows (V3-minimal) (claim_gate_output).');
    expect(found[0]!.hint).toMatch(/Use "V3-minimal" or a narrower label/);
  });

  it('passes a scope label as narrow as the gate’s', () => {
    const record = echoWith({
      '/verification_scope_label': 'single_hash_verification',
      '/claim_gate_output': { allowed_protocol_level: 'V3', allowed_protocol_scope_label: 'V3-minimal' },
    });
    expect(ofRule(judge(record), RULE)).toEqual([]);
  });

  it('refuses a scope label that needs a higher level than the gate allows, naming labels that fit', () => {
    const record = echoWith({
      '/verification_level': 'V2',
      '/verification_scope_label': 'multi_hash_verification',
      '/claim_gate_output': { allowed_protocol_level: 'V2' },
    });
    const found = ofRule(judge(record), RULE);
    expect(found).toHaveLength(1);
    expect(found[0]!.pointer).toBe('/verification_scope_label');
    expect(found[0]!.message).toBe(
      'verification_scope_label multi_hash_verification needs V3, more than the Claim Gate allows (V2) (claim_gate_output).',
    );
    expect(found[0]!.hint).toContain('single_reference_check');
    expect(found[0]!.hint).not.toContain('multi_hash_verification');
  });

  it('warns, without failing, when allowed_protocol_level is not a level', () => {
    const found = ofRule(judge(echoWith({ '/claim_gate_output': { allowed_protocol_level: 'V3-ish' } })), RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', pointer: '/claim_gate_output/allowed_protocol_level' });
  });
});
