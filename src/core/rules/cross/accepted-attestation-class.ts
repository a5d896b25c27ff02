import { asString, violation, type RecordRule } from '../rule.ts';

const ATTESTING_CLASSES = ['unsolicited_independent', 'institutional_third_party_attestation'];

/** Spec 2.1 cross-field rule 3 and section 3 rule 2. */
export const acceptedAttestationClass: RecordRule = {
  id: 'cross/accepted-attestation-class',
  summary:
    'archive_status accepted_independent_attestation needs independence_class unsolicited_independent or institutional_third_party_attestation (spec 2.1 rule 3).',
  check({ record }) {
    if (record.archive_status !== 'accepted_independent_attestation') return [];
    const cls = asString(record.independence_class);
    if (cls === undefined || ATTESTING_CLASSES.includes(cls)) return [];
    return [
      violation(
        this.id,
        '/archive_status',
        `archive_status accepted_independent_attestation is only for unsolicited_independent or institutional_third_party_attestation records (independence_class is "${cls}")`,
        'Use archive_status accepted_echo (or needs_human_review) for this record; independent attestation status needs an independent origin.',
      ),
    ];
  },
};
