import { describe, expect, it } from 'vitest';
import { deriveOriginClassification } from '../../../src/core/record/origin-classification.ts';
import { originClassificationMissing } from '../../../src/core/rules/cross/origin-classification-missing.ts';
import { RECORD_KINDS } from '../../../src/core/record/vocabulary.ts';
import { echoWith, errors, judge, ofRule, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/origin-classification-missing';
const EXEMPT = ['legacy_record', 'test_record', 'verification_report_v2'];

describe(RULE, () => {
  it('is the module of that id', () => expect(originClassificationMissing.id).toBe(RULE));

  it('passes a record that carries origin_classification (the base record)', () => {
    expect(ofRule(judge(echoWith({})), RULE)).toEqual([]);
  });

  it('warns, at the record, when an echo_v3 record lacks it; the record stays valid', () => {
    const record = echoWith({ '/origin_classification': REMOVE });
    const diags = judge(record);
    expect(errors(diags)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', pointer: '', line: 1, column: 1 });
    expect(found[0]!.message).toBe(
      'the record has no origin_classification: new echo_v3 records should say how they came about (discovery, invitation, requester, performer, method, attestation authority)',
    );
  });

  it('the fix hint says what to add: the classification derived from the record itself', () => {
    const record = echoWith({ '/origin_classification': REMOVE, '/discovery_provenance/source': 'human_directed', '/discovery_provenance/agency_level': 'A1_human_gave_exact_url', '/independence_class': 'human_solicited_agent_response' });
    const [found] = ofRule(judge(record), RULE);
    expect(found!.hint).toMatch(/^Add an origin_classification object \(\/api\/origin-classification-schema\.v1\.json\)/);
    const { notes: _notes, ...derived } = deriveOriginClassification(record);
    expect(found!.hint).toContain(JSON.stringify(derived));
    expect(derived).toMatchObject({ discovery_class: 'human_directed', requester_class: 'human_individual' });
    // Following the hint silences the warning and adds no error.
    const fixed = echoWith({ '/origin_classification': derived }, record);
    expect(errors(judge(fixed))).toEqual([]);
    expect(ofRule(judge(fixed), RULE)).toEqual([]);
  });

  it.each(RECORD_KINDS.filter((k) => !EXEMPT.includes(k)))('warns for %s', (kind) => {
    expect(ofRule(judge(echoWith({ '/origin_classification': REMOVE, '/record_kind': kind })), RULE).map((d) => d.severity)).toEqual(['warning']);
  });

  it.each(EXEMPT)('does not warn for %s', (kind) => {
    expect(ofRule(judge(echoWith({ '/origin_classification': REMOVE, '/record_kind': kind })), RULE)).toEqual([]);
  });

  it('leaves a present but malformed origin_classification to the schema', () => {
    const diags = judge(echoWith({ '/origin_classification': null }));
    expect(ofRule(diags, RULE)).toEqual([]);
    expect(errors(diags).map((d) => d.rule)).toContain('schema/type');
  });
});
