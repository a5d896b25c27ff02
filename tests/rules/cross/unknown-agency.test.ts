import { describe, expect, it } from 'vitest';
import { unknownAgency } from '../../../src/core/rules/cross/unknown-agency.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/unknown-agency';

/** The base record with an unknown agency level and no independence or attestation claim. */
function unknownAgencyEcho(changes: Record<string, unknown> = {}) {
  return echoWith({
    '/discovery_provenance/source': 'unknown',
    '/discovery_provenance/agency_level': 'A6_unknown',
    '/independence_class': 'unknown',
    ...changes,
  });
}

describe(RULE, () => {
  it('is the module of that id', () => expect(unknownAgency.id).toBe(RULE));

  it('passes an A6_unknown record that claims nothing', () => {
    expect(errors(judge(unknownAgencyEcho()))).toEqual([]);
  });

  it('does not apply when the agency is known', () => {
    const record = echoWith({ '/archive_status': 'accepted_independent_attestation', '/counts_as_independent_attestation': true,
      '/origin_classification/counts_as_formal_independent_attestation': true });
    expect(ofRule(judge(record), RULE)).toEqual([]);
  });

  it.each([
    ['/independence_class', 'unsolicited_independent', 'independence_class unsolicited_independent'],
    ['/independence_class', 'institutional_third_party_attestation', 'independence_class institutional_third_party_attestation'],
  ])('flags %s %s', (pointer, value, what) => {
    const record = unknownAgencyEcho({ [pointer]: value });
    const found = ofRule(judge(record), RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer });
    expect(found[0]!.message).toBe(`a record with agency_level A6_unknown must not claim ${what}`);
    expect(found[0]!.hint).toMatch(/cannot claim independence or attestation/);
    expect(found[0]!.line).toBe(lineOf(recordText(record), '"independence_class"'));
  });

  it('flags archive_status accepted_independent_attestation', () => {
    const record = unknownAgencyEcho({
      '/independence_class': 'institutional_third_party_attestation',
      '/archive_status': 'accepted_independent_attestation',
    });
    const found = ofRule(judge(record), RULE);
    expect(found.map((d) => d.pointer)).toEqual(['/independence_class', '/archive_status']);
    expect(found[1]!.message).toBe('a record with agency_level A6_unknown must not claim archive_status accepted_independent_attestation');
  });

  it('flags counts_as_independent_attestation: true (no origin classification to derive it from)', () => {
    const record = unknownAgencyEcho({ '/origin_classification': REMOVE, '/counts_as_independent_attestation': true });
    const diags = judge(record);
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]!.pointer).toBe('/counts_as_independent_attestation');
    expect(found[0]!.message).toContain('counts_as_independent_attestation: true');
  });

  it('flags origin_classification.counts_as_formal_independent_attestation: true at that field', () => {
    const record = unknownAgencyEcho({
      '/counts_as_independent_attestation': true,
      '/origin_classification/counts_as_formal_independent_attestation': true,
    });
    const diags = judge(record);
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    // in file order: origin_classification comes before counts_as_independent_attestation in the base record
    expect(found.map((d) => d.pointer)).toEqual([
      '/origin_classification/counts_as_formal_independent_attestation',
      '/counts_as_independent_attestation',
    ]);
    const formal = found.find((d) => d.pointer.startsWith('/origin_classification'))!;
    expect(formal.message).toContain('origin_classification.counts_as_formal_independent_attestation: true');
    expect(formal.line).toBe(lineOf(recordText(record), '"counts_as_formal_independent_attestation"'));
  });
});
