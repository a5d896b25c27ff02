import { describe, expect, it } from 'vitest';
import { supersededReason } from '../../../src/core/rules/state/superseded-reason.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText } from '../../helpers/records.ts';

const RULE = 'state/superseded-reason';

describe(RULE, () => {
  it('is the module of that id', () => expect(supersededReason.id).toBe(RULE));

  it('passes a superseded record that says why', () => {
    const record = echoWith({ '/archive_status': 'superseded', '/superseded_reason': 'replaced by echo-2026-06-01-000002' });
    expect(errors(judge(record))).toEqual([]);
  });

  it('does not ask other statuses for a reason', () => {
    expect(ofRule(judge(echoWith({ '/archive_status': 'rejected' })), RULE)).toEqual([]);
  });

  it('flags a superseded record without superseded_reason, at the top level', () => {
    const diags = judge(echoWith({ '/archive_status': 'superseded' }));
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: '', line: 1, column: 1 });
    expect(found[0]!.message).toBe('a superseded record must say why: superseded_reason is missing');
    expect(found[0]!.hint).toMatch(/Add "superseded_reason"/);
  });

  it.each(['', '   ', '\n\t'])('flags a blank superseded_reason %j at the field', (blank) => {
    const record = echoWith({ '/archive_status': 'superseded', '/superseded_reason': blank });
    const found = ofRule(judge(record), RULE);
    expect(found).toHaveLength(1);
    expect(found[0]!.pointer).toBe('/superseded_reason');
    expect(found[0]!.message).toBe('a superseded record must say why: superseded_reason is blank');
    expect(found[0]!.line).toBe(lineOf(recordText(record), '"superseded_reason"'));
  });

  it('leaves a non-string reason to the schema', () => {
    const diags = judge(echoWith({ '/archive_status': 'superseded', '/superseded_reason': 42 }));
    expect(ofRule(diags, RULE)).toEqual([]);
    expect(ofRule(diags, 'schema/type').map((d) => d.pointer)).toEqual(['/superseded_reason']);
  });
});
