/**
 * The fixed values a schema demands (required properties with a `const`), read from the schema documents, so
 * that code filling in boundary flags writes what the schema says rather than a second copy of it.
 */
import { schemaDocument } from './documents.ts';

type SchemaNode = {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  const?: unknown;
  [key: string]: unknown;
};

/** Follows a `$ref` of the form "/api/<file>.json" or "/api/<file>.json#/$defs/<name>" (relative to `baseId`). */
function resolve(node: SchemaNode, baseId: string): { node: SchemaNode; baseId: string } {
  let current = node;
  let id = baseId;
  while (current.$ref !== undefined) {
    const [docId, fragment = ''] = current.$ref.split('#');
    id = docId ? docId : id;
    let target = schemaDocument(id) as SchemaNode | undefined;
    if (!target) throw new Error(`schema ${id} is not in the schema folder`);
    for (const token of fragment.split('/').filter(Boolean)) {
      target = target[decodeURIComponent(token)] as SchemaNode | undefined;
      if (!target) throw new Error(`${current.$ref} does not resolve`);
    }
    current = target;
  }
  return { node: current, baseId: id };
}

/**
 * `{ name: const }` for every required property with a `const` of the object at `path` (property names from the
 * schema's root), in the order of its `required` list.
 */
export function requiredConstants(schemaId: string, ...path: string[]): Record<string, unknown> {
  const root = schemaDocument(schemaId) as SchemaNode | undefined;
  if (!root) throw new Error(`schema ${schemaId} is not in the schema folder`);
  let at = resolve(root, schemaId);
  for (const name of path) {
    const child = at.node.properties?.[name];
    if (!child) throw new Error(`${schemaId} has no property ${path.join('.')}`);
    at = resolve(child, at.baseId);
  }
  const out: Record<string, unknown> = {};
  for (const name of at.node.required ?? []) {
    const property = at.node.properties?.[name];
    const value = property ? resolve(property, at.baseId).node.const : undefined;
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * `{ name: true }` for every top-level property of a schema whose value is the constant true (the Echo v3 record's
 * not_authority, not_amendment, not_endorsement, bitcoin_originals_prevail, not_verification_unless_claimed): the
 * flags a new record states, read from the schema, in its property order.
 */
export function constantTrueFlags(schemaId: string): Record<string, true> {
  const root = schemaDocument(schemaId) as SchemaNode | undefined;
  if (!root) throw new Error(`schema ${schemaId} is not in the schema folder`);
  const out: Record<string, true> = {};
  for (const [name, property] of Object.entries(resolve(root, schemaId).node.properties ?? {})) {
    if (resolve(property, schemaId).node.const === true) out[name] = true;
  }
  return out;
}
