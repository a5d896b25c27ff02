import type { Finding } from '../diagnostics/diagnostic.ts';
import { schemaErrors } from '../schema/compile.ts';
import { translateSchemaErrors } from '../schema/translate-errors.ts';
import { recordRules } from '../rules/index.ts';
import type { ArchiveLookup, ArchiveRecord, JsonObject } from '../rules/rule.ts';

/** Schema and every record rule on one parsed record: the single place a record is judged. */
export function checkRecord(record: JsonObject, file: ArchiveRecord, archive: ArchiveLookup): Finding[] {
  const findings = translateSchemaErrors(schemaErrors(record));
  const ctx = { record, file, archive };
  for (const rule of recordRules) findings.push(...rule.check(ctx));
  return findings;
}
