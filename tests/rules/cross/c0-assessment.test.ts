import { describe, expect, it } from 'vitest';
import { c0Assessment } from '../../../src/core/rules/cross/c0-assessment.ts';
import { echoWith, errors, judge, lineOf, ofRule, recordText, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/c0-assessment';

describe(RULE, () => {
  it('is the module of that id', () => expect(c0Assessment.id).toBe(RULE));

  it('passes a homepage-only record whose assessment is insufficient_context', () => {
    const record = echoWith({ '/context_depth': 'C0_homepage_only', '/assessment_state': 'insufficient_context' });
    expect(errors(judge(record))).toEqual([]);
  });

  it('does not apply to deeper context (C1..C6) with any assessment', () => {
    for (const depth of ['C1_orientation', 'C3_verification_aware', 'C6_independent_node_verified']) {
      const record = echoWith({ '/context_depth': depth, '/assessment_state': 'full_chain_assessment' });
      expect(ofRule(judge(record), RULE)).toEqual([]);
    }
  });

  it.each(['preliminary_orientation', 'qualified_assessment', 'independent_verification_assessment'])(
    'flags C0_homepage_only with assessment_state %s, at the assessment_state value',
    (state) => {
      const record = echoWith({ '/context_depth': 'C0_homepage_only', '/assessment_state': state });
      const diags = judge(record);
      expect(errors(diags)).toHaveLength(1);
      const [d] = ofRule(diags, RULE);
      expect(d).toMatchObject({ rule: RULE, severity: 'error', pointer: '/assessment_state' });
      expect(d!.message).toContain('C0_homepage_only');
      expect(d!.message).toContain('insufficient_context');
      expect(d!.message).toContain(`"${state}"`);
      expect(d!.hint).toMatch(/set assessment_state to "insufficient_context"/);
      expect(d!.hint).toMatch(/raise context_depth/);
      const text = recordText(record);
      const line = lineOf(text, '"assessment_state"');
      expect(d!.line).toBe(line);
      expect(d!.column).toBe(text.split('\n')[line - 1]!.indexOf(`"${state}"`) + 1);
    },
  );

  it('flags C0_homepage_only without assessment_state, at context_depth, beside the schema finding (DECISIONS 15)', () => {
    const record = echoWith({ '/context_depth': 'C0_homepage_only', '/assessment_state': REMOVE });
    const diags = judge(record);
    const [d] = ofRule(diags, RULE);
    expect(d).toMatchObject({ rule: RULE, severity: 'error', pointer: '/context_depth' });
    expect(d!.message).toContain('no assessment_state');
    expect(d!.hint).toContain('"assessment_state": "insufficient_context"');
    expect(d!.line).toBe(lineOf(recordText(record), '"context_depth"'));
    expect(ofRule(diags, 'schema/required')[0]!.message).toContain('assessment_state');
  });

  it.each(['legacy_record', 'verification_report_v2'])('flags a %s at C0 without assessment_state, and passes it with insufficient_context', (kind) => {
    const bare = echoWith({ '/record_kind': kind, '/context_depth': 'C0_homepage_only', '/assessment_state': REMOVE });
    expect(ofRule(judge(bare), RULE)).toHaveLength(1);
    expect(ofRule(judge(bare), 'schema/required')).toEqual([]);
    const fixed = echoWith({ '/assessment_state': 'insufficient_context' }, bare);
    expect(ofRule(judge(fixed), RULE)).toEqual([]);
  });

  it('does not apply when context_depth is absent or deeper, whatever the assessment', () => {
    expect(ofRule(judge(echoWith({ '/record_kind': 'legacy_record', '/context_depth': REMOVE, '/assessment_state': REMOVE })), RULE)).toEqual([]);
    expect(ofRule(judge(echoWith({ '/context_depth': 'C1_orientation', '/assessment_state': REMOVE })), RULE)).toEqual([]);
  });
});
