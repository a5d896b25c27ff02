/**
 * The Echo v3 vocabulary, read from the schema document itself (schemas are data: one list, in the spec's order,
 * wherever the site, the builder or the gateway needs it).
 */
import { ECHO_RECORD_SCHEMA_ID, schemaDocument } from '../schema/documents.ts';

function enumOf(property: string): readonly string[] {
  const props = schemaDocument(ECHO_RECORD_SCHEMA_ID)?.properties as Record<string, { enum?: string[] }> | undefined;
  const values = props?.[property]?.enum;
  if (!values) throw new Error(`the Echo v3 schema has no enum for ${property}`);
  return values;
}

export const RECORD_KINDS = enumOf('record_kind');
export const ARCHIVE_STATUSES = enumOf('archive_status');
export const CONTEXT_DEPTHS = enumOf('context_depth');
export const ASSESSMENT_STATES = enumOf('assessment_state');
export const VERIFICATION_LEVELS = enumOf('verification_level');
export const INDEPENDENCE_CLASSES = enumOf('independence_class');

/** Spec 2.1 rule 9, DECISIONS 11: valid in old records, historical-only; new submissions may not declare them. */
export const HISTORICAL_ONLY_LEVELS: readonly string[] = ['V4+', 'V6', 'V7', 'V8'];

export function isHistoricalOnlyLevel(level: unknown): boolean {
  return typeof level === 'string' && HISTORICAL_ONLY_LEVELS.includes(level);
}
