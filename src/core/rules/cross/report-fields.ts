import { violation, type RecordRule } from '../rule.ts';

/** The fields this kind needs beyond the schema (also what `npm run new` scaffolds for it). */
export const REPORT_FIELDS = ['verification_scope_label', 'linked_verification_report', 'generated_by'];

/** Spec 2.1 cross-field rule 6. */
export const reportFields: RecordRule = {
  id: 'cross/report-fields',
  summary:
    'record_kind echo_v3_with_verification_report needs verification_scope_label, linked_verification_report and generated_by (spec 2.1 rule 6).',
  check({ record }) {
    if (record.record_kind !== 'echo_v3_with_verification_report') return [];
    const missing = REPORT_FIELDS.filter((f) => record[f] === undefined);
    if (missing.length === 0) return [];
    return [
      violation(
        this.id,
        '',
        `a record of kind echo_v3_with_verification_report is missing ${missing.join(', ')}`,
        'Link the verification report (linked_verification_report with schema_version and path), copy its verification_scope_label, and describe how it was produced (generated_by); or use record_kind echo_v3 if there is no report.',
      ),
    ];
  },
};
