/**
 * The canonical layout of a record file: members in the order of the schema's `properties` (sub-schemas followed
 * through `$ref`), members the schema does not name after them in the order written, 2-space indentation, a final
 * newline. `npm run new` writes it; a record already in this layout comes back byte for byte from its Markdown draft.
 * (This is a file layout for people, not the RFC 8785 form that hashes and signatures use: see canonical/jcs.ts.)
 */
import { ECHO_RECORD_SCHEMA_ID } from '../schema/documents.ts';
import { itemSchema, memberSchema, schemaRoot, type ResolvedNode } from '../schema/resolve-ref.ts';

function ordered(value: unknown, at: ResolvedNode | undefined): unknown {
  if (Array.isArray(value)) {
    const items = at && itemSchema(at);
    return value.map((v) => ordered(v, items));
  }
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const names = Object.keys(object);
  const known = at ? Object.keys(at.node.properties ?? {}).filter((k) => Object.hasOwn(object, k)) : [];
  const rest = names.filter((k) => !known.includes(k));
  const out: Record<string, unknown> = {};
  for (const k of [...known, ...rest]) {
    // __proto__ as a plain member, not the prototype setter
    Object.defineProperty(out, k, { value: ordered(object[k], at && memberSchema(at, k)), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `record` with its members in the schema's order (a new value; the input is not changed). */
export function inSchemaOrder(record: unknown, schemaId: string = ECHO_RECORD_SCHEMA_ID): unknown {
  return ordered(record, schemaRoot(schemaId));
}

/** The record file's text in the canonical layout. */
export function canonicalRecordText(record: unknown, schemaId: string = ECHO_RECORD_SCHEMA_ID): string {
  return JSON.stringify(inSchemaOrder(record, schemaId), null, 2) + '\n';
}
