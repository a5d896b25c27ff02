import { asString, violation, type RecordRule } from '../rule.ts';

/** Spec 2.1 cross-field rule 1 and section 3 rule 3. */
export const c0Assessment: RecordRule = {
  id: 'cross/c0-assessment',
  summary: 'context_depth C0_homepage_only forces assessment_state insufficient_context (spec 2.1 rule 1, section 3 rule 3).',
  check({ record }) {
    if (record.context_depth !== 'C0_homepage_only') return [];
    const state = asString(record.assessment_state);
    if (state === 'insufficient_context' || state === undefined) return [];
    return [
      violation(
        this.id,
        '/assessment_state',
        `a record with context_depth C0_homepage_only must have assessment_state insufficient_context (found "${state}")`,
        'Having read only the homepage is not enough for an assessment: set assessment_state to "insufficient_context", or raise context_depth if you read further.',
      ),
    ];
  },
};
