import { violation, type SchemaRule } from '../rule.ts';

/**
 * Spec section 3 rule 1 and DECISIONS 10. The condition is the schema's (`$defs/superseded_reason`: present, and
 * matching \S, so not blank).
 */
export const supersededReason: SchemaRule = {
  id: 'state/superseded-reason',
  summary: 'archive_status superseded needs a non-blank superseded_reason (spec section 3 rule 1, DECISIONS 10).',
  explain(errors) {
    return errors.map((e) =>
      violation(
        this.id,
        e.keyword === 'required' ? '' : '/superseded_reason',
        e.keyword === 'required'
          ? 'a superseded record must say why: superseded_reason is missing'
          : 'a superseded record must say why: superseded_reason is blank',
        'Add "superseded_reason" naming what replaces this record and why (e.g. the id of the newer record).',
      ),
    );
  },
};
