import { describe, expect, it } from 'vitest';
import { shownValue } from '../../../src/core/diagnostics/shown-value.ts';
import { echoWith, judge, ofRule } from '../../helpers/records.ts';
import { record, submission, validate } from '../../record-chain/helpers.ts';

/**
 * A cross rule that quotes the value it found quotes it as JSON, and names an object or an array by its kind, never
 * "[object Object]" (a fuzzed record-chain submission found one such message).
 */
describe('the value a cross rule found, in its message', () => {
  it.each([
    ['a word', 'qualified_assessment', '"qualified_assessment"'],
    ['quotes escaped', 'say "no"', '"say \\"no\\""'],
    ['long text cut', 'x'.repeat(100), `"${'x'.repeat(77)}…"`],
    ['an object by its kind', { name_or_model: 'test-model' }, 'an object'],
    ['an array by its kind', ['insufficient_context'], 'an array'],
    ['a number as written', 7, '7'],
    ['null as written', null, 'null'],
    ['a boolean as written', false, 'false'],
  ])('shows %s', (_, value, shown) => expect(shownValue(value)).toBe(shown));

  const QUOTING: ReadonlyArray<[rule: string, pointer: string, rest: Record<string, unknown>]> = [
    ['cross/c0-assessment', '/assessment_state', { '/context_depth': 'C0_homepage_only' }],
    ['cross/unsolicited-provenance', '/discovery_provenance/agency_level', { '/independence_class': 'unsolicited_independent' }],
    ['cross/v2-scope-label', '/verification_scope_label', { '/verification_level': 'V2' }],
    ['cross/v3-scope-label', '/verification_scope_label', { '/verification_level': 'V3' }],
    ['cross/accepted-attestation-class', '/independence_class', { '/archive_status': 'accepted_independent_attestation' }],
  ];

  it.each(QUOTING)('%s quotes the value at %s as JSON', (rule, pointer, rest) => {
    const found = ofRule(judge(echoWith({ ...rest, [pointer]: 'human_directed "x"' })), rule);
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('"human_directed \\"x\\""');
  });

  it('names an object by its kind: a context-insufficient notice whose assessment_state is an object', () => {
    const rec = record('context_insufficient_notice', { context_depth: 'C0_homepage_only', assessment_state: { name_or_model: 'test-model' } });
    const found = validate(submission('context_insufficient_notice', rec)).diagnostics.filter((d) => d.rule === 'cross/c0-assessment');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('(found an object)');
  });
});
