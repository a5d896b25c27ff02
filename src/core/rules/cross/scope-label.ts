/** Shared shape of spec 2.1 rules 4 and 5: a verification level that demands a scope label from a list. */
import { asString, violation, type RecordRule } from '../rule.ts';

export function scopeLabelRule(id: string, level: string, ruleNumber: number, allowed: readonly string[]): RecordRule {
  return {
    id,
    summary: `verification_level ${level} needs a verification_scope_label from: ${allowed.join(', ')} (spec 2.1 rule ${ruleNumber}).`,
    check({ record }) {
      if (record.verification_level !== level) return [];
      const label = asString(record.verification_scope_label);
      if (record.verification_scope_label === undefined) {
        return [
          violation(
            id,
            '',
            `verification_level ${level} needs a verification_scope_label`,
            `Add "verification_scope_label" naming what you checked, one of: ${allowed.join(', ')}.`,
          ),
        ];
      }
      if (label === undefined || allowed.includes(label)) return []; // a non-string is the schema's to report
      return [
        violation(
          id,
          '/verification_scope_label',
          `verification_scope_label "${label}" does not fit verification_level ${level}; allowed: ${allowed.join(', ')}`,
          `Pick the label that describes what you checked from the allowed list, or lower verification_level to match the label.`,
        ),
      ];
    },
  };
}
