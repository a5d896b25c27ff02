/**
 * The fixed values a schema demands (required properties with a `const`), read from the schema documents, so
 * that code filling in boundary flags writes what the schema says rather than a second copy of it.
 */
import { resolveRef as resolve, schemaRoot } from './resolve-ref.ts';

/**
 * `{ name: const }` for every required property with a `const` of the object at `path` (property names from the
 * schema's root), in the order of its `required` list.
 */
export function requiredConstants(schemaId: string, ...path: string[]): Record<string, unknown> {
  let at = schemaRoot(schemaId);
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
  const root = schemaRoot(schemaId);
  const out: Record<string, true> = {};
  for (const [name, property] of Object.entries(root.node.properties ?? {})) {
    if (resolve(property, root.baseId).node.const === true) out[name] = true;
  }
  return out;
}
