/**
 * Walking the schema documents as data: a node type and `$ref` resolution, shared by code that reads the schemas
 * (fixed values, key order, scaffolds) instead of keeping a second copy of them.
 */
import { schemaDocument } from './documents.ts';

export type SchemaNode = {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  required?: string[];
  const?: unknown;
  enum?: unknown[];
  type?: string | string[];
  description?: string;
  minItems?: number;
  [key: string]: unknown;
};

export interface ResolvedNode {
  node: SchemaNode;
  /** The `$id` of the document the node lives in (relative `$ref`s below it resolve against it). */
  baseId: string;
}

/** Follows a `$ref` of the form "/api/<file>.json" or "/api/<file>.json#/$defs/<name>" (relative to `baseId`). */
export function resolveRef(node: SchemaNode, baseId: string): ResolvedNode {
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

/** The root node of the schema `schemaId`, resolved. */
export function schemaRoot(schemaId: string): ResolvedNode {
  const root = schemaDocument(schemaId) as SchemaNode | undefined;
  if (!root) throw new Error(`schema ${schemaId} is not in the schema folder`);
  return resolveRef(root, schemaId);
}

/** The schema of member `name` of an object node: its `properties` entry, else an `additionalProperties` schema. */
export function memberSchema(at: ResolvedNode, name: string): ResolvedNode | undefined {
  const child = at.node.properties?.[name] ?? (typeof at.node.additionalProperties === 'object' ? at.node.additionalProperties : undefined);
  return child ? resolveRef(child, at.baseId) : undefined;
}

/** The schema of an array node's items. */
export function itemSchema(at: ResolvedNode): ResolvedNode | undefined {
  return at.node.items ? resolveRef(at.node.items, at.baseId) : undefined;
}
