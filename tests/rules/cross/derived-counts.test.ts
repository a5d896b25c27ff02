import { describe, expect, it } from 'vitest';
import { derivedCounts } from '../../../src/core/rules/cross/derived-counts.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/derived-counts';
const FORMAL = '/origin_classification/counts_as_formal_independent_attestation';

describe(RULE, () => {
  it('is the module of that id', () => expect(derivedCounts.id).toBe(RULE));

  it('passes when both flags agree (false/false in the base, true/true)', () => {
    expect(errors(judge(echoWith({})))).toEqual([]);
    expect(errors(judge(echoWith({ '/counts_as_independent_attestation': true, [FORMAL]: true })))).toEqual([]);
  });

  it('passes when either side is absent', () => {
    expect(ofRule(judge(echoWith({ '/counts_as_independent_attestation': REMOVE })), RULE)).toEqual([]);
    expect(ofRule(judge(echoWith({ '/origin_classification': REMOVE, '/counts_as_independent_attestation': true })), RULE)).toEqual([]);
  });

  it.each([
    [true, false],
    [false, true],
  ])('flags counts_as_independent_attestation %s against the derived %s', (legacy, derived) => {
    const record = echoWith({ '/counts_as_independent_attestation': legacy, [FORMAL]: derived });
    const diags = judge(record);
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: '/counts_as_independent_attestation' });
    expect(found[0]!.message).toBe(
      `counts_as_independent_attestation is ${legacy} but origin_classification.counts_as_formal_independent_attestation is ${derived}`,
    );
    expect(found[0]!.hint).toContain(`set counts_as_independent_attestation to ${derived}`);
    expect(found[0]!.line).toBe(lineOf(recordText(record), '"counts_as_independent_attestation"'));
  });
});
