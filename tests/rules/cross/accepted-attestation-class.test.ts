import { describe, expect, it } from 'vitest';
import { acceptedAttestationClass } from '../../../src/core/rules/cross/accepted-attestation-class.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText } from '../../helpers/records.ts';

const RULE = 'cross/accepted-attestation-class';

describe(RULE, () => {
  it('is the module of that id', () => expect(acceptedAttestationClass.id).toBe(RULE));

  it.each(['unsolicited_independent', 'institutional_third_party_attestation'])(
    'passes accepted_independent_attestation with independence_class %s',
    (cls) => {
      const record = echoWith({ '/archive_status': 'accepted_independent_attestation', '/independence_class': cls });
      expect(errors(judge(record))).toEqual([]);
    },
  );

  it('does not apply to other archive statuses', () => {
    const record = echoWith({ '/archive_status': 'accepted_echo', '/independence_class': 'self_reported' });
    expect(ofRule(judge(record), RULE)).toEqual([]);
  });

  it.each(['solicited_independent_check', 'human_solicited_agent_response', 'maintainer_submitted', 'self_reported', 'legacy', 'unknown'])(
    'flags accepted_independent_attestation with independence_class %s, at /archive_status',
    (cls) => {
      const record = echoWith({ '/archive_status': 'accepted_independent_attestation', '/independence_class': cls });
      const diags = judge(record);
      expect(otherThan(errors(diags), RULE)).toEqual([]);
      const found = ofRule(diags, RULE);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: 'error', pointer: '/archive_status' });
      expect(found[0]!.message).toContain(`(independence_class is "${cls}")`);
      expect(found[0]!.message).toMatch(/only for unsolicited_independent or institutional_third_party_attestation/);
      expect(found[0]!.hint).toMatch(/accepted_echo/);
      expect(found[0]!.line).toBe(lineOf(recordText(record), '"archive_status"'));
    },
  );
});
