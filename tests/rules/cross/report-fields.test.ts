import { describe, expect, it } from 'vitest';
import { reportFields } from '../../../src/core/rules/cross/report-fields.ts';
import { echoWith, errors, judge, ofRule, otherThan, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/report-fields';

const GENERATED_BY = {
  tool: 'scripts/build_verification_report_from_evidence.py',
  builder_version: '1.2.0',
  claim_gate_output: 'claim-gate/output.json',
  evidence_input: 'evidence/input.json',
  generated_at_utc: '2026-05-01T10:00:00Z',
  validation_command: 'python scripts/validate.py',
  validation_result: 'PASS',
};
const LINK = { schema_version: 'v3', path: '/reports/report-1.json' };
const REPORT = echoWith({ '/record_kind': 'verification_report_v2' });

function reportEcho(changes: Record<string, unknown> = {}) {
  return echoWith({
    '/record_kind': 'echo_v3_with_verification_report',
    '/linked_verification_report': LINK,
    '/generated_by': GENERATED_BY,
    ...changes,
  });
}

describe(RULE, () => {
  it('is the module of that id', () => expect(reportFields.id).toBe(RULE));

  it('passes a report echo that has the label, the link and generated_by', () => {
    const diags = judge(reportEcho(), { others: { 'reports/report-1.json': REPORT } });
    expect(errors(diags)).toEqual([]);
  });

  it('does not apply to a plain echo_v3 without them', () => {
    expect(ofRule(judge(echoWith({ '/verification_level': 'V1', '/verification_scope_label': REMOVE })), RULE)).toEqual([]);
  });

  it('flags all three missing fields in one finding, in the spec order', () => {
    const record = echoWith({
      '/record_kind': 'echo_v3_with_verification_report',
      '/verification_level': 'V1',
      '/verification_scope_label': REMOVE,
    });
    const diags = judge(record);
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: '', line: 1, column: 1 });
    expect(found[0]!.message).toBe(
      'a record of kind echo_v3_with_verification_report is missing verification_scope_label, linked_verification_report, generated_by',
    );
    expect(found[0]!.hint).toMatch(/record_kind echo_v3 if there is no report/);
  });

  it.each(['linked_verification_report', 'generated_by'])('names only the missing %s', (field) => {
    const diags = judge(reportEcho({ [`/${field}`]: REMOVE }), { others: { 'reports/report-1.json': REPORT } });
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toBe(`a record of kind echo_v3_with_verification_report is missing ${field}`);
    expect(otherThan(errors(diags), RULE)).toEqual([]);
  });
});
