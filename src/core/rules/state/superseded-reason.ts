import { violation, type RecordRule } from '../rule.ts';

/** Spec section 3 rule 1 and DECISIONS 10. */
export const supersededReason: RecordRule = {
  id: 'state/superseded-reason',
  summary: 'archive_status superseded needs a non-blank superseded_reason (spec section 3 rule 1, DECISIONS 10).',
  check({ record }) {
    if (record.archive_status !== 'superseded') return [];
    const reason = record.superseded_reason;
    if (reason !== undefined && (typeof reason !== 'string' || reason.trim() !== '')) return [];
    return [
      violation(
        this.id,
        reason === undefined ? '' : '/superseded_reason',
        reason === undefined
          ? 'a superseded record must say why: superseded_reason is missing'
          : 'a superseded record must say why: superseded_reason is blank',
        'Add "superseded_reason" naming what replaces this record and why (e.g. the id of the newer record).',
      ),
    ];
  },
};
