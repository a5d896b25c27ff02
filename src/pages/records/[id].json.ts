/**
 * /records/<id>.json in `astro dev`: the record file exactly as submitted (byte-identical; its SHA-256 is the one
 * the site shows). A build publishes these files itself, by linking the validated files into the output
 * (src/site/build/4-raw-records.ts), so this route has no paths in a build.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { readRawRecord } from '../../site/build/4-raw-records.ts';
import { archiveRecords, type RecordEntry } from '../../site/model/records.ts';

export const getStaticPaths = (async () =>
  import.meta.env.ECHO_DEV_SERVER ? (await archiveRecords()).map((entry) => ({ params: { id: entry.id }, props: { entry } })) : []) satisfies GetStaticPaths;

export const GET: APIRoute<{ entry: RecordEntry }> = ({ props: { entry } }) =>
  // A file read from disk is backed by an ArrayBuffer (never a SharedArrayBuffer), which is what Response takes.
  new Response(readRawRecord(entry) as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': 'application/json' } });
