/**
 * /api/<schema>.json: every JSON Schema document of the core, as the exact bytes of its file in `schemas/`.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedSchemas, type PublishedSchema } from '../../site/schemas.ts';

export const getStaticPaths = (() =>
  publishedSchemas().map((schema) => ({ params: { schema: schema.param }, props: { schema } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ schema: PublishedSchema }> = ({ props }) =>
  new Response(props.schema.bytes, { headers: { 'Content-Type': 'application/schema+json' } });
