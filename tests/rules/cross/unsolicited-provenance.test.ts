import { describe, expect, it } from 'vitest';
import { unsolicitedProvenance } from '../../../src/core/rules/cross/unsolicited-provenance.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/unsolicited-provenance';
const A4 = 'A4_independent_search_or_browsing_discovery';
const A5 = 'A5_independent_return_after_prior_interest';

describe(RULE, () => {
  it('is the module of that id', () => expect(unsolicitedProvenance.id).toBe(RULE));

  describe('passes', () => {
    it.each([
      ['search_engine', A4],
      ['prior_memory', A5],
      ['self_initiated', A4],
      ['crawler_discovery', A5],
    ])('unsolicited_independent with source %s and agency %s', (source, agency) => {
      const record = echoWith({ '/discovery_provenance/source': source, '/discovery_provenance/agency_level': agency });
      expect(errors(judge(record))).toEqual([]);
    });

    it('a human-directed record that does not claim to be unsolicited', () => {
      const record = echoWith({
        '/independence_class': 'human_solicited_agent_response',
        '/discovery_provenance/source': 'human_directed',
        '/discovery_provenance/agency_level': 'A1_human_gave_exact_url',
      });
      expect(errors(judge(record))).toEqual([]);
    });
  });

  describe('bad source', () => {
    it.each(['human_directed', 'maintainer_submitted'])('flags source %s at /discovery_provenance/source', (source) => {
      const record = echoWith({ '/discovery_provenance/source': source });
      const diags = judge(record);
      expect(otherThan(errors(diags), RULE)).toEqual([]);
      const found = ofRule(diags, RULE);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: 'error', pointer: '/discovery_provenance/source' });
      expect(found[0]!.message).toContain(`source "${source}"`);
      expect(found[0]!.message).toContain('unsolicited_independent');
      expect(found[0]!.hint).toMatch(/not unsolicited/);
      expect(found[0]!.hint).toContain('human_solicited_agent_response');
      const text = recordText(record);
      expect(found[0]!.line).toBe(lineOf(text, `"source": "${source}"`));
    });
  });

  describe('missing agency', () => {
    it('flags the provenance object when agency_level is absent (DECISIONS 7)', () => {
      const record = echoWith({ '/discovery_provenance/agency_level': REMOVE });
      const diags = judge(record);
      const found = ofRule(diags, RULE);
      expect(found).toHaveLength(1);
      expect(found[0]!.pointer).toBe('/discovery_provenance');
      expect(found[0]!.message).toBe('an unsolicited_independent record must state discovery_provenance.agency_level');
      expect(found[0]!.hint).toMatch(/found \(A4\) or returned to \(A5\)/);
      expect(found[0]!.line).toBe(lineOf(recordText(record), '"discovery_provenance"'));
      // the schema says the same field is missing, in its own words
      expect(ofRule(diags, 'schema/required')[0]!.message).toBe('missing required field in /discovery_provenance: agency_level');
    });
  });

  describe('wrong agency', () => {
    it.each(['A0_forced_or_instructed', 'A1_human_gave_exact_url', 'A3_agent_followed_other_agent_reference', 'human_task_initiated_agent_response'])(
      'flags agency_level %s',
      (agency) => {
        const record = echoWith({ '/discovery_provenance/agency_level': agency });
        const diags = judge(record);
        expect(otherThan(errors(diags), RULE)).toEqual([]);
        const found = ofRule(diags, RULE);
        expect(found).toHaveLength(1);
        expect(found[0]!.pointer).toBe('/discovery_provenance/agency_level');
        expect(found[0]!.message).toContain(A4);
        expect(found[0]!.message).toContain(A5);
        expect(found[0]!.message).toContain(`(found "${agency}")`);
        expect(found[0]!.line).toBe(lineOf(recordText(record), '"agency_level"'));
      },
    );
  });

  it('reports a bad source and a wrong agency as two findings', () => {
    const diags = judge(
      echoWith({ '/discovery_provenance/source': 'maintainer_submitted', '/discovery_provenance/agency_level': 'A0_forced_or_instructed' }),
    );
    expect(ofRule(diags, RULE).map((d) => d.pointer)).toEqual(['/discovery_provenance/source', '/discovery_provenance/agency_level']);
  });

  it('leaves a missing discovery_provenance to the schema', () => {
    const diags = judge(echoWith({ '/discovery_provenance': REMOVE }));
    expect(ofRule(diags, RULE)).toEqual([]);
    expect(ofRule(diags, 'schema/required')[0]!.message).toContain('discovery_provenance');
  });
});
