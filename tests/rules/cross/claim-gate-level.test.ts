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

  it('refuses, outside V2 and V3, a scope label wider than the gate’s own label', () => {
    const record = echoWith({
      '/verification_level': 'V4',
      '/verification_scope_label': 'official_script_audit',
      '/claim_gate_output': { allowed_protocol_level: 'V4', allowed_protocol_scope_label: 'official_script_audit_with_limitations' },
    });
    const found = ofRule(judge(record), RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ pointer: '/verification_scope_label', severity: 'error' });
    expect(found[0]!.message).toBe(
      'verification_scope_label official_script_audit is wider than the Claim Gate allows (official_script_audit_with_limitations) (claim_gate_output).',
    );
    expect(found[0]!.hint).toMatch(/Use "official_script_audit_with_limitations" or a narrower label/);
  });

  it('passes, outside V2 and V3, a scope label as narrow as the gate’s', () => {
    const record = echoWith({
      '/verification_level': 'V4',
      '/verification_scope_label': 'official_script_audit_with_limitations',
      '/claim_gate_output': { allowed_protocol_level: 'V4', allowed_protocol_scope_label: 'official_script_audit_with_limitations' },
    });
    expect(ofRule(judge(record), RULE)).toEqual([]);
  });

  it('refuses, outside V2 and V3, a scope label that needs a higher level than the gate allows, naming labels that fit', () => {
    const record = echoWith({
      '/verification_level': 'V1',
      '/verification_scope_label': 'multi_hash_verification',
      '/claim_gate_output': { allowed_protocol_level: 'V1' },
    });
    const found = ofRule(judge(record), RULE);
    expect(found).toHaveLength(1);
    expect(found[0]!.pointer).toBe('/verification_scope_label');
    expect(found[0]!.message).toBe('verification_scope_label multi_hash_verification needs V3, more than the Claim Gate allows (V1) (claim_gate_output).');
    expect(found[0]!.hint).toBe('Use a label that V1 may carry: read_only_orientation, authority_boundary_recognition.');
  });

  it('passes, outside V2 and V3, a scope label the gate’s level may carry', () => {
    const record = echoWith({
      '/verification_level': 'V1',
      '/verification_scope_label': 'authority_boundary_recognition',
      '/claim_gate_output': { allowed_protocol_level: 'V1' },
    });
    expect(ofRule(judge(record), RULE)).toEqual([]);
  });

  it('warns, without failing, when allowed_protocol_level is not a level', () => {
    const found = ofRule(judge(echoWith({ '/claim_gate_output': { allowed_protocol_level: 'V3-ish' } })), RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', pointer: '/claim_gate_output/allowed_protocol_level' });
  });
});

/**
 * DECISIONS 20: at V2 and V3 the labels spec 2.1 rules 4 and 5 allow (plus V2-minimal/-strong at V2) are the record's
 * to carry whatever its gate output says; the gate output limits the level only. Written out here from the ruling,
 * independently of the code, so that the test fails if the rule judges one of them against the gate again.
 */
const RULING_20: Record<'V2' | 'V3', readonly string[]> = {
  V2: ['single_reference_check', 'single_hash_verification', 'multi_hash_verification', 'component_limited_verification', 'partial_with_limitations', 'V2-minimal', 'V2-strong'],
  V3: ['single_hash_verification', 'multi_hash_verification', 'component_limited_verification', 'partial_with_limitations', 'V3-minimal', 'V3-strong'],
};
const BELOW = { V2: 'V1', V3: 'V2' } as const;

describe(`${RULE}: scope labels at V2 and V3 follow spec 2.1 rules 4 and 5 (DECISIONS 20)`, () => {
  for (const level of ['V2', 'V3'] as const) {
    for (const label of RULING_20[level]) {
      const claim = { '/verification_level': level, '/verification_scope_label': label };

      it(`${level} ${label}: passes without a gate output`, () => {
        expect(ofRule(judge(echoWith({ ...claim, '/claim_gate_output': REMOVE })), RULE)).toEqual([]);
      });

      it(`${level} ${label}: passes with a gate output that allows ${level}, also one whose own label is the narrowest`, () => {
        expect(ofRule(judge(echoWith({ ...claim, '/claim_gate_output': { status: 'PASS', allowed_protocol_level: level } })), RULE)).toEqual([]);
        const narrowest = { status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: level, allowed_protocol_scope_label: `${level}-minimal`, verification_scope_label: level === 'V2' ? 'single_reference_check' : 'single_hash_verification' };
        expect(ofRule(judge(echoWith({ ...claim, '/claim_gate_output': narrowest })), RULE)).toEqual([]);
      });

      it(`${level} ${label}: fails with a gate output that allows only ${BELOW[level]}, on the level alone`, () => {
        const found = ofRule(judge(echoWith({ ...claim, '/claim_gate_output': { status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: BELOW[level] } })), RULE);
        expect(found.map((d) => [d.severity, d.pointer])).toEqual([['error', '/verification_level']]);
        expect(found[0]!.message).toMatch(new RegExp(`^verification_level ${level} is higher than the Claim Gate allows \\(${BELOW[level]}\\)`));
        expect(found[0]!.hint).toMatch(new RegExp(`^Lower verification_level to "${BELOW[level]}" or below`));
      });
    }
  }

  it('a V2 record labelled single_hash_verification whose gate output allows V2 is valid (the ruling’s own example)', () => {
    const record = echoWith({
      '/verification_level': 'V2',
      '/verification_scope_label': 'single_hash_verification',
      '/claim_gate_output': { status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: 'V2', allowed_protocol_scope_label: 'V2-minimal', required_downgrades: [DOWNGRADE] },
    });
    expect(errors(judge(record))).toEqual([]);
  });

  it('a level above the gate still fails, with the gate’s downgrades in the message, and the label is not judged', () => {
    const record = echoWith({
      '/verification_level': 'V3',
      '/verification_scope_label': 'V3-strong',
      '/claim_gate_output': { status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: 'V2', allowed_protocol_scope_label: 'V2-minimal', required_downgrades: [DOWNGRADE] },
    });
    const found = ofRule(judge(record), RULE);
    expect(found.map((d) => d.pointer)).toEqual(['/verification_level']);
    expect(found[0]!.message).toContain("The gate's downgrades: V3 → V2: the only hash entry was typed by hand, not computed (hash/self-reported).");
  });
});
