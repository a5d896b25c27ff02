import type { Finding } from '../../diagnostics/diagnostic.ts';
import { deriveOriginClassification } from '../../record/origin-classification.ts';
import type { RecordRule } from '../rule.ts';

/** The kinds that need no origin_classification (DECISIONS 22): old records, test records and old reports. */
export const ORIGIN_EXEMPT_KINDS: readonly string[] = ['legacy_record', 'test_record', 'verification_report_v2'];

/**
 * Spec 2.1 ("New records should include it") with DECISIONS 22: a warning, never an error, when a record of any
 * other kind lacks origin_classification. The hint shows what the archive's own derivation makes of the record.
 */
export const originClassificationMissing: RecordRule = {
  id: 'cross/origin-classification-missing',
  summary:
    'A record other than legacy_record, test_record or verification_report_v2 should carry origin_classification (spec 2.1, DECISIONS 22); a warning only.',
  check({ record }) {
    const kind = record.record_kind;
    if (typeof kind !== 'string' || ORIGIN_EXEMPT_KINDS.includes(kind) || Object.hasOwn(record, 'origin_classification')) return [];
    const { notes: _notes, ...derived } = deriveOriginClassification(record);
    const finding: Finding = {
      rule: this.id,
      severity: 'warning',
      message: `the record has no origin_classification: new ${kind} records should say how they came about (discovery, invitation, requester, performer, method, attestation authority)`,
      hint:
        'Add an origin_classification object (/api/origin-classification-schema.v1.json). Derived from what this record says of its discovery, it would be ' +
        `${JSON.stringify(derived)}; correct any value you know better ("unknown" where the record says nothing). ` +
        'If counts_as_independent_attestation is present it must equal counts_as_formal_independent_attestation.',
      pointer: '',
    };
    return [finding];
  },
};
