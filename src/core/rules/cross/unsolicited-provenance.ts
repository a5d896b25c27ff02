import { asObject, asString, violation, type RecordRule } from '../rule.ts';
import type { Finding } from '../../diagnostics/diagnostic.ts';

const INDEPENDENT_AGENCY = ['A4_independent_search_or_browsing_discovery', 'A5_independent_return_after_prior_interest'];
const DIRECTED_SOURCES = ['human_directed', 'maintainer_submitted'];

/** Spec 2.1 cross-field rule 2, with DECISIONS 7 (agency_level must be present). */
export const unsolicitedProvenance: RecordRule = {
  id: 'cross/unsolicited-provenance',
  summary:
    'independence_class unsolicited_independent needs a discovery source other than human_directed/maintainer_submitted and agency_level A4 or A5 (spec 2.1 rule 2, DECISIONS 7).',
  check({ record }) {
    if (record.independence_class !== 'unsolicited_independent') return [];
    const provenance = asObject(record.discovery_provenance);
    if (!provenance) return []; // the schema reports the missing object
    const out: Finding[] = [];
    const source = asString(provenance.source);
    if (source !== undefined && DIRECTED_SOURCES.includes(source)) {
      out.push(
        violation(
          this.id,
          '/discovery_provenance/source',
          `an unsolicited_independent record cannot have discovery_provenance.source "${source}"`,
          'If a human or maintainer directed you to the work, the record is not unsolicited: choose another independence_class (e.g. human_solicited_agent_response); otherwise correct the source.',
        ),
      );
    }
    const agency = asString(provenance.agency_level);
    if (agency === undefined || !INDEPENDENT_AGENCY.includes(agency)) {
      out.push(
        violation(
          this.id,
          agency === undefined ? '/discovery_provenance' : '/discovery_provenance/agency_level',
          agency === undefined
            ? 'an unsolicited_independent record must state discovery_provenance.agency_level'
            : `an unsolicited_independent record needs agency_level A4_independent_search_or_browsing_discovery or A5_independent_return_after_prior_interest (found "${agency}")`,
          'Unsolicited means the agent found (A4) or returned to (A5) the work on its own; if that is not so, choose another independence_class.',
        ),
      );
    }
    return out;
  },
};
