/**
 * What the schemas say about field names, for showing records to people: which fields hold a value from a fixed
 * list (shown as a readable label rather than as free text). Read from the core's schema documents, so a new enum in
 * a schema is picked up without touching the site.
 */
import { schemaDocuments } from '../../core/schema/documents.ts';

const enumFields = new Set<string>();

function visit(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  const properties = schema.properties;
  if (properties !== null && typeof properties === 'object') {
    for (const [name, sub] of Object.entries(properties as Record<string, unknown>)) {
      if (sub !== null && typeof sub === 'object') {
        const s = sub as Record<string, unknown>;
        const items = s.items !== null && typeof s.items === 'object' ? (s.items as Record<string, unknown>) : undefined;
        if (Array.isArray(s.enum) || Array.isArray(items?.enum)) enumFields.add(name);
      }
    }
  }
  for (const value of Object.values(schema)) visit(value);
}
visit(schemaDocuments);

/** Whether values of this field come from a fixed list in some schema (then they are shown as labels). */
export function isEnumField(name: string): boolean {
  return enumFields.has(name);
}
