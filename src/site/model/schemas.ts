/**
 * The JSON Schema documents published under /api/, served as the exact bytes of the files in `schemas/` so that
 * publication is byte-stable. The list is the core's (src/core/schema/documents.ts): each document's `$id` is its
 * public path, `/api/<file name>`, and the file of that name must hold that same document.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { root } from 'astro:config/server';
import { schemaDocuments } from '../../core/schema/documents.ts';

export interface PublishedSchema {
  /** Public path, e.g. /api/echo-record-schema.v3.json. */
  id: string;
  /** The route parameter: the path under /api/ without `.json`. */
  param: string;
  title: string | undefined;
  bytes: Uint8Array<ArrayBuffer>;
}

const API_PREFIX = '/api/';

export function publishedSchemas(): PublishedSchema[] {
  return schemaDocuments.map((doc) => {
    const id = doc.$id;
    if (!id.startsWith(API_PREFIX) || !id.endsWith('.json') || id.includes('..')) {
      throw new Error(`schema $id ${JSON.stringify(id)} is not a path of the form /api/<file>.json`);
    }
    const file = id.slice(API_PREFIX.length);
    const url = new URL(`schemas/${file}`, root);
    const bytes = readFileSync(url);
    // The bytes served must be the document the validator uses, not a stale or renamed file.
    if (!isDeepStrictEqual(JSON.parse(bytes.toString('utf8')), JSON.parse(JSON.stringify(doc)))) {
      throw new Error(`schemas/${file} does not hold the schema document with $id ${id}`);
    }
    return { id, param: file.slice(0, -'.json'.length), title: doc.title, bytes };
  });
}
