/**
 * The record `npm run new` writes for a kind, read from the Echo v3 schema (schemas are data): every field the schema
 * requires for that kind (and the fields a rule requires for it, e.g. report fields), constants filled in, and a
 * `<TODO: …>` placeholder wherever the contributor must answer, naming the allowed values or the field's description.
 * Every kind also gets origin_classification (DECISIONS 22), its required fields as placeholders.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { REPORT_FIELDS } from '../rules/cross/report-fields.ts';
import type { JsonObject } from '../rules/rule.ts';
import { ECHO_RECORD_SCHEMA_ID } from '../schema/documents.ts';
import { itemSchema, memberSchema, schemaRoot, type ResolvedNode, type SchemaNode } from '../schema/resolve-ref.ts';
import { RECORD_KINDS } from './vocabulary.ts';
import { inSchemaOrder } from './canonical-layout.ts';
import { placeholder } from './placeholder.ts';

/** Fields a rule (not the schema) requires for a kind. */
const RULE_REQUIRED: Record<string, readonly string[]> = { echo_v3_with_verification_report: REPORT_FIELDS };

/**
 * Fields every record the archive's tools make carries, whatever its kind (DECISIONS 22: "new records should include"
 * origin_classification; the validator warns when a record of most kinds lacks it, cross/origin-classification-missing).
 */
const TOOL_FIELDS: readonly string[] = ['origin_classification'];

/**
 * What a new contribution starts as. Reviewers change the status when they accept it (spec section 3); a test
 * record says what it is.
 */
const INITIAL_STATUS: Record<string, string> = { test_record: 'test_record' };
const DEFAULT_STATUS = 'needs_human_review';

function typesOf(node: SchemaNode): string[] {
  return node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
}

function sentence(description: string | undefined, name: string): string {
  return (description ?? `the ${name.replaceAll('_', ' ')}`).replace(/\.$/, '');
}

/**
 * A value for a required field: its constant, or a filled object, or a placeholder saying what to write. An array's
 * item without a description of its own is described by the array's (e.g. "What the agent is unsure of").
 */
function fill(at: ResolvedNode, name: string, inherited?: string): unknown {
  const node = at.node;
  const description = node.description ?? inherited;
  if (node.const !== undefined) return node.const;
  if (node.enum) return placeholder(`one of ${node.enum.join(', ')}`);
  const types = typesOf(node);
  if (types.includes('object') || node.properties) {
    const out: JsonObject = {};
    for (const child of node.required ?? []) {
      const sub = memberSchema(at, child);
      out[child] = sub ? fill(sub, child) : placeholder(`the ${child}`);
    }
    return out;
  }
  if (types.includes('array')) {
    const items = itemSchema(at);
    return Array.from({ length: Math.max(1, node.minItems ?? 1) }, () => (items ? fill(items, name, description) : placeholder(sentence(description, name))));
  }
  if (types.includes('boolean')) return placeholder(`true or false: ${sentence(description, name)}`);
  if (types.includes('integer') || types.includes('number')) return placeholder(`a number: ${sentence(description, name)}`);
  return placeholder(`your text: ${sentence(description, name)}`);
}

/** The schema's required fields for a record of `kind`: always-required ones and those of every matching if/then. */
function requiredFor(kind: string): string[] {
  const root = schemaRoot(ECHO_RECORD_SCHEMA_ID).node;
  const names = [...(root.required ?? [])];
  const conditions = (root.allOf ?? []) as SchemaNode[];
  const ajv = new Ajv2020({ strict: false });
  for (const c of conditions) {
    const when = c.if as SchemaNode | undefined;
    const then = c.then as SchemaNode | undefined;
    if (when && then && ajv.validate(when, { record_kind: kind })) names.push(...(then.required ?? []));
  }
  return names;
}

export class UnknownKindError extends Error {}

export function scaffoldRecord(kind: string): JsonObject {
  if (!RECORD_KINDS.includes(kind)) {
    throw new UnknownKindError(`unknown record kind "${kind}": use one of ${RECORD_KINDS.join(', ')}`);
  }
  const root = schemaRoot(ECHO_RECORD_SCHEMA_ID);
  const record: JsonObject = {};
  for (const name of [...requiredFor(kind), ...(RULE_REQUIRED[kind] ?? []), ...TOOL_FIELDS]) {
    if (Object.hasOwn(record, name)) continue;
    const at = memberSchema(root, name);
    record[name] = at ? fill(at, name) : placeholder(`the ${name}`);
  }
  record.record_kind = kind;
  record.archive_status = INITIAL_STATUS[kind] ?? DEFAULT_STATUS;
  return inSchemaOrder(record) as JsonObject;
}
