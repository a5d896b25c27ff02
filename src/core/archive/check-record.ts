import type { Finding } from '../diagnostics/diagnostic.ts';
import { schemaErrors } from '../schema/compile.ts';
import { translateSchemaErrors } from '../schema/translate-errors.ts';
import { recordRules } from '../rules/index.ts';
import { placeholderLeft } from '../rules/draft/placeholder.ts';
import type { ArchiveLookup, ArchiveRecord, JsonObject } from '../rules/rule.ts';

/** Schema and every record rule on one parsed record: the single place a record is judged. */
export function checkRecord(record: JsonObject, file: ArchiveRecord, archive: ArchiveLookup): Finding[] {
  const findings = translateSchemaErrors(schemaErrors(record));
  const ctx = { record, file, archive };
  for (const rule of recordRules) findings.push(...rule.check(ctx));
  return withoutPlaceholderNoise(findings);
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
