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
