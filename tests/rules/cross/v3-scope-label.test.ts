import { describe, expect, it } from 'vitest';
import { v3ScopeLabel } from '../../../src/core/rules/cross/v3-scope-label.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/v3-scope-label';
// spec 2.1 cross-field rule 5
const ALLOWED = [
  'single_hash_verification',
  'multi_hash_verification',
  'component_limited_verification',
  'partial_with_limitations',
  'V3-minimal',
  'V3-strong',
];

describe(RULE, () => {
  it('is the module of that id', () => expect(v3ScopeLabel.id).toBe(RULE));

  it.each(ALLOWED)('passes verification_level V3 with label %s', (label) => {
    const record = echoWith({ '/verification_level': 'V3', '/verification_scope_label': label });
    expect(errors(judge(record))).toEqual([]);
  });

  it('does not apply to V4 or none', () => {
    for (const level of ['V4', 'none']) {
      const record = echoWith({ '/verification_level': level, '/verification_scope_label': 'single_reference_check' });
      expect(ofRule(judge(record), RULE)).toEqual([]);
    }
  });

  it('flags V3 without a label, at the top level', () => {
    const diags = judge(echoWith({ '/verification_scope_label': REMOVE }));
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: '', line: 1, column: 1 });
    expect(found[0]!.message).toBe('verification_level V3 needs a verification_scope_label');
    expect(found[0]!.hint).toContain('V3-minimal, V3-strong');
  });

  it.each(['single_reference_check', 'V2-minimal', 'official_script_audit'])('flags V3 with the V3-foreign label %s', (label) => {
    const record = echoWith({ '/verification_scope_label': label });
    const diags = judge(record);
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]!.pointer).toBe('/verification_scope_label');
    expect(found[0]!.message).toContain(`"${label}" does not fit verification_level V3`);
    expect(found[0]!.message).toContain(ALLOWED.join(', '));
    expect(found[0]!.line).toBe(lineOf(recordText(record), '"verification_scope_label"'));
  });
});
