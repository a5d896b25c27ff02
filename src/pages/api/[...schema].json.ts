/**
 * /api/<name>.json: every published document other than the public index —
 *   - the JSON Schema documents of the core, as the exact bytes of their files in `schemas/`;
 *   - the authored documents of `documents/` (policies, agent router, checklist, pipeline rules), with
 *     `{base_url}` and `{gateway_url}` filled from the site configuration (src/core/publish/documents.ts).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { siteConfig } from '../../core/config.ts';
import { publishedDocuments } from '../../core/publish/documents.ts';
import { publishedSchemas } from '../../site/model/schemas.ts';

type Published = {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
};

function allPublished(): { param: string; props: Published }[] {
  const schemas = publishedSchemas().map((s) => ({
    param: s.param,
    props: { bytes: s.bytes, contentType: 'application/schema+json' },
  }));
  const documents = publishedDocuments(siteConfig()).map((d) => ({
    param: d.file.slice(0, -'.json'.length),
    props: { bytes: new Uint8Array(Buffer.from(d.text, 'utf8')), contentType: 'application/json' },
  }));
  const all = [...schemas, ...documents];
  const seen = new Set<string>();
  for (const { param } of all) {
    if (seen.has(param)) throw new Error(`two published documents would be /api/${param}.json`);
    seen.add(param);
  }
  return all;
}

export const getStaticPaths = (() =>
  allPublished().map(({ param, props }) => ({ params: { schema: param }, props }))) satisfies GetStaticPaths;

export const GET: APIRoute<Published> = ({ props }) =>
  new Response(props.bytes, { headers: { 'Content-Type': props.contentType } });
