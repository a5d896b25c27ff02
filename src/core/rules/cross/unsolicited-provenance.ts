import { shownValue } from '../../diagnostics/shown-value.ts';
import { violation, type SchemaRule } from '../rule.ts';

const HINT_AGENCY =
  'Unsolicited means the agent found (A4) or returned to (A5) the work on its own; if that is not so, choose another independence_class.';

/**
 * Spec 2.1 cross-field rule 2, with DECISIONS 7 (agency_level must be present). The condition is the schema's
 * (`$defs/unsolicited_provenance`); the source is reported before the agency level, as a reader meets them.
 */
export const unsolicitedProvenance: SchemaRule = {
  id: 'cross/unsolicited-provenance',
  summary:
    'independence_class unsolicited_independent needs a discovery source other than human_directed/maintainer_submitted and agency_level A4 or A5 (spec 2.1 rule 2, DECISIONS 7).',
  explain(errors) {
    const source = errors
      .filter((e) => e.instancePath === '/discovery_provenance/source')
      .map((e) =>
        violation(
          this.id,
          e.instancePath,
          `an unsolicited_independent record cannot have discovery_provenance.source ${shownValue(e.data)}`,
          'If a human or maintainer directed you to the work, the record is not unsolicited: choose another independence_class (e.g. human_solicited_agent_response); otherwise correct the source.',
        ),
      );
    const agency = errors
      .filter((e) => e.instancePath !== '/discovery_provenance/source')
      .map((e) =>
        e.keyword === 'required'
          ? violation(this.id, '/discovery_provenance', 'an unsolicited_independent record must state discovery_provenance.agency_level', HINT_AGENCY)
          : violation(
              this.id,
              e.instancePath,
              `an unsolicited_independent record needs agency_level A4_independent_search_or_browsing_discovery or A5_independent_return_after_prior_interest (found ${shownValue(e.data)})`,
              HINT_AGENCY,
            ),
      );
    return [...source, ...agency];
  },
};
