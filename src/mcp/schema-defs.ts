/**
 * A definition of one of the archive's published schemas (schemas/, served under /api/), made self-contained for a
 * tool's outputSchema: every $ref — within the document (#/$defs/…) or to another published schema
 * (/api/…#/…) — replaced by what it points to, so that the tool's schema is the published one and needs no other
 * document to be checked (an MCP client holds only the tool's schema).
 */
import { schemaDocuments } from '../core/schema/documents.ts';

type Json = Record<string, unknown>;

function documentOf(id: string): Json {
  const doc = schemaDocuments.find((s) => s.$id === id) as Json | undefined;
  if (!doc) throw new Error(`no published schema ${id}`);
  return doc;
}

function pointer(doc: Json, fragment: string): unknown {
  let at: unknown = doc;
  for (const raw of fragment.replace(/^\//, '').split('/').filter((p) => p !== '')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    at = (at as Json | undefined)?.[key];
    if (at === undefined) throw new Error(`${String(doc.$id)}#${fragment} points at nothing`);
  }
  return at;
}

function inline(value: unknown, doc: Json, depth: number): unknown {
  if (depth > 32) throw new Error('a $ref cycle: the definition cannot be inlined');
  if (Array.isArray(value)) return value.map((v) => inline(v, doc, depth));
  if (value === null || typeof value !== 'object') return value;
  const { $ref, ...rest } = value as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(rest)) out[k] = inline(v, doc, depth);
  if (typeof $ref !== 'string') return out;
  const [id, fragment = ''] = $ref.split('#') as [string, string?];
  const target = id === '' ? doc : documentOf(id);
  const resolved = inline(pointer(target, fragment), target, depth + 1) as Json;
  // The referring schema's own words (its description) stand beside what it refers to.
  return { ...resolved, ...out };
}

/** `$defs[name]` of the published schema `id` (e.g. /api/public-index-schema.v1.json), with every $ref inlined. */
export function publishedDefinition(id: string, name: string): Json {
  const doc = documentOf(id);
  return inline(pointer(doc, `/$defs/${name}`), doc, 0) as Json;
}

/** `{ anyOf: [definition, null] }`: a definition that may be null (as the index's nullable fields are). */
export function nullable(definition: Json, description: string): Json {
  return { anyOf: [definition, { type: 'null' }], description };
}
