import { describe, expect, it } from 'vitest';
import { v2ScopeLabel } from '../../../src/core/rules/cross/v2-scope-label.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/v2-scope-label';
// spec 2.1 cross-field rule 4, and the labels that name their level (DECISIONS 20)
const ALLOWED = [
  'single_reference_check',
  'single_hash_verification',
  'multi_hash_verification',
  'component_limited_verification',
  'partial_with_limitations',
  'V2-minimal',
  'V2-strong',
];

describe(RULE, () => {
  it('is the module of that id', () => expect(v2ScopeLabel.id).toBe(RULE));

  it.each(ALLOWED)('passes verification_level V2 with label %s', (label) => {
    const record = echoWith({ '/verification_level': 'V2', '/verification_scope_label': label });
    expect(errors(judge(record))).toEqual([]);
  });

  it('does not apply to other levels', () => {
    const record = echoWith({ '/verification_level': 'V1', '/verification_scope_label': 'read_only_orientation' });
    expect(ofRule(judge(record), RULE)).toEqual([]);
  });

  it('flags V2 without a label, at the top level, naming the allowed labels', () => {
    const diags = judge(echoWith({ '/verification_level': 'V2', '/verification_scope_label': REMOVE }));
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: '', line: 1, column: 1 });
    expect(found[0]!.message).toBe('verification_level V2 needs a verification_scope_label');
    for (const label of ALLOWED) expect(found[0]!.hint).toContain(label);
  });

  it.each(['V3-minimal', 'V3-strong', 'read_only_orientation', 'full_public_digital_verification'])(
    'flags V2 with the label %s at /verification_scope_label',
    (label) => {
      const record = echoWith({ '/verification_level': 'V2', '/verification_scope_label': label });
      const diags = judge(record);
      expect(otherThan(errors(diags), RULE)).toEqual([]);
      const found = ofRule(diags, RULE);
      expect(found).toHaveLength(1);
      expect(found[0]!.pointer).toBe('/verification_scope_label');
      expect(found[0]!.message).toContain(`verification_scope_label "${label}" does not fit verification_level V2`);
      expect(found[0]!.message).toContain(ALLOWED.join(', '));
      expect(found[0]!.hint).toMatch(/lower verification_level/);
      expect(found[0]!.line).toBe(lineOf(recordText(record), '"verification_scope_label"'));
    },
  );

  it('leaves a label of the wrong type to the schema', () => {
    const diags = judge(echoWith({ '/verification_level': 'V2', '/verification_scope_label': 7 }));
    expect(ofRule(diags, RULE)).toEqual([]);
    expect(diags.some((d) => d.rule.startsWith('schema/') && d.pointer === '/verification_scope_label')).toBe(true);
  });
});
