import { shownValue } from '../../diagnostics/shown-value.ts';
import { violation, type SchemaRule } from '../rule.ts';

/**
 * Spec 2.1 cross-field rule 1 and section 3 rule 3, with DECISIONS 15: "must be" means present, so a C0 record of
 * any kind without assessment_state breaks the rule too (found at context_depth, the value that demands it).
 * The condition is the schema's (`$defs/c0_assessment`).
 */
export const c0Assessment: SchemaRule = {
  id: 'cross/c0-assessment',
  summary: 'context_depth C0_homepage_only forces assessment_state insufficient_context, present, for every record kind (spec 2.1 rule 1, section 3 rule 3, DECISIONS 15).',
  explain(errors) {
    return errors.map((e) =>
      e.keyword === 'required'
        ? violation(
            this.id,
            '/context_depth',
            'a record with context_depth C0_homepage_only must have assessment_state insufficient_context (it has no assessment_state)',
            'Having read only the homepage is not enough for an assessment: add "assessment_state": "insufficient_context", or raise context_depth if you read further.',
          )
        : violation(
            this.id,
            '/assessment_state',
            `a record with context_depth C0_homepage_only must have assessment_state insufficient_context (found ${shownValue(e.data)})`,
            'Having read only the homepage is not enough for an assessment: set assessment_state to "insufficient_context", or raise context_depth if you read further.',
          ),
    );
  },
};
