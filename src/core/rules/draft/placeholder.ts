import { findPlaceholders } from '../../record/placeholder.ts';
import { violation, type RecordRule } from '../rule.ts';

/** Our rule: a record scaffolded by `npm run new` is not finished while a `<TODO: …>` placeholder is left. */
export const placeholderLeft: RecordRule = {
  id: 'draft/placeholder',
  summary: 'No value is still a `<TODO: …>` placeholder written by `npm run new`.',
  check({ record }) {
    return findPlaceholders(record).map(([pointer, asked]) =>
      violation(
        this.id,
        pointer,
        `${pointer.slice(1) || 'the record'} still holds the placeholder written by npm run new`,
        `Replace the placeholder with ${asked}.`,
      ),
    );
  },
};
