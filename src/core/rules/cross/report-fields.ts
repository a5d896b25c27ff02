import { ruleSchema } from '../../schema/schema-rules.ts';
import { violation, type SchemaRule } from '../rule.ts';

const ID = 'cross/report-fields';

/** The fields this kind needs beyond the schema's field set (also what `npm run new` scaffolds for it): the schema's list. */
export const REPORT_FIELDS: readonly string[] = (ruleSchema(ID) as { then: { required: string[] } }).then.required;

/** Spec 2.1 cross-field rule 6. The condition is the schema's (`$defs/report_fields`); the missing fields are one finding. */
export const reportFields: SchemaRule = {
  id: ID,
  summary:
    'record_kind echo_v3_with_verification_report needs verification_scope_label, linked_verification_report and generated_by (spec 2.1 rule 6).',
  explain(errors) {
    const missing = REPORT_FIELDS.filter((f) => errors.some((e) => e.keyword === 'required' && e.params.missingProperty === f));
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
