/**
 * Shared shape of spec 2.1 rules 4 and 5 (DECISIONS 20): a verification level that demands a scope label from a list.
 * The level and the list are the schema's (`$defs/v2_scope_label`, `$defs/v3_scope_label`), read from it here.
 */
import { ruleSchema } from '../../schema/schema-rules.ts';
import { shownValue } from '../../diagnostics/shown-value.ts';
import { violation, type SchemaRule } from '../rule.ts';

interface ScopeLabelSchema {
  if: { properties: { verification_level: { const: string } } };
  then: { properties: { verification_scope_label: { enum: string[] } } };
}

/** The labels the schema lets `rule` (cross/v2-scope-label or cross/v3-scope-label) accept, in the schema's order. */
export function scopeLabelsOf(rule: string): { level: string; allowed: readonly string[] } {
  const schema = ruleSchema(rule) as unknown as ScopeLabelSchema;
  return { level: schema.if.properties.verification_level.const, allowed: schema.then.properties.verification_scope_label.enum };
}

export function scopeLabelRule(id: string, ruleNumber: number): SchemaRule {
  const { level, allowed } = scopeLabelsOf(id);
  return {
    id,
    summary: `verification_level ${level} needs a verification_scope_label from: ${allowed.join(', ')} (spec 2.1 rule ${ruleNumber}, DECISIONS 20).`,
    explain(errors) {
      return errors.map((e) =>
        e.keyword === 'required'
          ? violation(
              id,
              '',
              `verification_level ${level} needs a verification_scope_label`,
              `Add "verification_scope_label" naming what you checked, one of: ${allowed.join(', ')}.`,
            )
          : violation(
              id,
              '/verification_scope_label',
              `verification_scope_label ${shownValue(e.data)} does not fit verification_level ${level}; allowed: ${allowed.join(', ')}`,
              `Pick the label that describes what you checked from the allowed list, or lower verification_level to match the label.`,
            ),
      );
    },
  };
}
