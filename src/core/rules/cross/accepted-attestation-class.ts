import { shownValue } from '../../diagnostics/shown-value.ts';
import { violation, type SchemaRule } from '../rule.ts';

/**
 * Spec 2.1 cross-field rule 3 and section 3 rule 2. The condition is the schema's (`$defs/accepted_attestation_class`);
 * the finding points at archive_status, the claim to take back.
 */
export const acceptedAttestationClass: SchemaRule = {
  id: 'cross/accepted-attestation-class',
  summary:
    'archive_status accepted_independent_attestation needs independence_class unsolicited_independent or institutional_third_party_attestation (spec 2.1 rule 3).',
  explain(errors) {
    return errors.map((e) =>
      violation(
        this.id,
        '/archive_status',
        `archive_status accepted_independent_attestation is only for unsolicited_independent or institutional_third_party_attestation records (independence_class is ${shownValue(e.data)})`,
        'Use archive_status accepted_echo (or needs_human_review) for this record; independent attestation status needs an independent origin.',
      ),
    );
  },
};
