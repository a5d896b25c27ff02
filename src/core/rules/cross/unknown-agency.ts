import type { Finding } from '../../diagnostics/diagnostic.ts';
import { asObject, violation, type RecordRule } from '../rule.ts';

const HINT =
  'With agency_level A6_unknown nobody can tell how the record came about, so it cannot claim independence or attestation: drop the claim, or state the real agency level if it is known.';

/** Spec 2.1 cross-field rule 8 with DECISIONS 6. */
export const unknownAgency: RecordRule = {
  id: 'cross/unknown-agency',
  summary:
    'A record whose discovery_provenance.agency_level is A6_unknown claims no independence or attestation (spec 2.1 rule 8, DECISIONS 6).',
  check({ record }) {
    if (asObject(record.discovery_provenance)?.agency_level !== 'A6_unknown') return [];
    const out: Finding[] = [];
    const claim = (pointer: string, what: string): void => {
      out.push(violation(this.id, pointer, `a record with agency_level A6_unknown must not claim ${what}`, HINT));
    };
    if (record.independence_class === 'unsolicited_independent' || record.independence_class === 'institutional_third_party_attestation') {
      claim('/independence_class', `independence_class ${String(record.independence_class)}`);
    }
    if (record.archive_status === 'accepted_independent_attestation') {
      claim('/archive_status', 'archive_status accepted_independent_attestation');
    }
    if (record.counts_as_independent_attestation === true) {
      claim('/counts_as_independent_attestation', 'counts_as_independent_attestation: true');
    }
    if (asObject(record.origin_classification)?.counts_as_formal_independent_attestation === true) {
      claim(
        '/origin_classification/counts_as_formal_independent_attestation',
        'origin_classification.counts_as_formal_independent_attestation: true',
      );
    }
    return out;
  },
};
