import { describe, expect, it } from 'vitest';
import { placeholderLeft } from '../../../src/core/rules/draft/placeholder.ts';
import { placeholder } from '../../../src/core/record/placeholder.ts';
import { echoWith, errors, judge, lineOf, ofRule, recordText } from '../../helpers/records.ts';

const RULE = 'draft/placeholder';

describe(RULE, () => {
  it('is the module of that id', () => expect(placeholderLeft.id).toBe(RULE));

  it('passes a record without placeholders', () => {
    expect(ofRule(judge(echoWith({})), RULE)).toEqual([]);
  });

  it('passes text that merely mentions a TODO', () => {
    const record = echoWith({ '/echo': '<TODO: this looks like one> but goes on', '/uncertainties/0': 'TODO: check the mirrors' });
    expect(errors(judge(record))).toEqual([]);
  });

  it('flags each placeholder at its place, with what to write as the fix', () => {
    const record = echoWith({ '/context_depth': placeholder('one of C0_homepage_only, C1_orientation'), '/uncertainties/1': placeholder('your text: what you are unsure of') });
    const found = ofRule(judge(record), RULE);
    expect(found.map((f) => f.pointer)).toEqual(['/context_depth', '/uncertainties/1']);
    expect(found[0]).toMatchObject({ severity: 'error', line: lineOf(recordText(record), '"context_depth"') });
    expect(found[0]!.message).toBe('context_depth still holds the placeholder written by npm run new');
    expect(found[0]!.hint).toBe('Replace the placeholder with one of C0_homepage_only, C1_orientation.');
  });

  it("holds back the schema's and rules' complaints at the same place, and only there", () => {
    const record = echoWith({
      '/context_depth': placeholder('one of …'),
      '/agent_identity/self_reported': placeholder('true or false'),
      '/archive_status': 'not-a-status',
    });
    const diags = errors(judge(record));
    expect(diags.filter((d) => d.pointer === '/context_depth').map((d) => d.rule)).toEqual([RULE]);
    expect(diags.filter((d) => d.pointer === '/agent_identity/self_reported').map((d) => d.rule)).toEqual([RULE]);
    expect(diags.filter((d) => d.pointer === '/archive_status').map((d) => d.rule)).toEqual(['schema/enum']);
  });
});
