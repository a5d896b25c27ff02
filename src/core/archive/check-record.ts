import type { Finding } from '../diagnostics/diagnostic.ts';
import { schemaErrors } from '../schema/compile.ts';
import { ruleSchemaRef, splitRuleErrors } from '../schema/schema-rules.ts';
import { translateSchemaErrors } from '../schema/translate-errors.ts';
import { recordRules } from '../rules/index.ts';
import { placeholderLeft } from '../rules/draft/placeholder.ts';
import { isSchemaRule, type ArchiveLookup, type ArchiveRecord, type JsonObject, type SchemaRule } from '../rules/rule.ts';

/**
 * Schema and every record rule on one parsed record: the single place a record is judged. One schema pass judges
 * the schema's own rules too (DECISIONS 21); each rule's module says its errors, in the rules' order.
 */
export function checkRecord(record: JsonObject, file: ArchiveRecord, archive: ArchiveLookup): Finding[] {
  const { general, byRule } = splitRuleErrors(schemaErrors(record));
  const findings = translateSchemaErrors(general);
  const ctx = { record, file, archive };
  for (const rule of recordRules) {
    if (!isSchemaRule(rule)) findings.push(...rule.check(ctx));
    else {
      const errors = byRule.get(rule.id);
      if (errors) findings.push(...rule.explain(errors, record));
      byRule.delete(rule.id);
    }
  }
  // A rule marked in the schema without a module would be judged and never said: a defect, not a pass.
  if (byRule.size > 0) throw new Error(`schema rule(s) without a module in src/core/rules/index.ts: ${[...byRule.keys()].join(', ')}`);
  return withoutPlaceholderNoise(findings);
}

/**
 * One schema rule on its own, for content that is not an Echo v3 record but shares the rule's fields (record-chain
 * records): the rule's sub-schema of the Echo v3 schema, and the rule's words for its errors.
 */
export function checkSchemaRule(rule: SchemaRule, record: JsonObject): Finding[] {
  const errors = schemaErrors(record, ruleSchemaRef(rule.id)).filter((e) => e.keyword !== 'if' && e.keyword !== 'type');
  return errors.length === 0 ? [] : rule.explain(errors, record);
}

/**
 * At a `<TODO: …>` placeholder, the placeholder finding says what to write; the schema's "must be one of …" or
 * "must be boolean" at the same place would only repeat it in other words.
 */
function withoutPlaceholderNoise(findings: Finding[]): Finding[] {
  const at = new Set(findings.filter((f) => f.rule === placeholderLeft.id).map((f) => f.pointer));
  if (at.size === 0) return findings;
  return findings.filter((f) => f.rule === placeholderLeft.id || !at.has(f.pointer));
}
