/**
 * /records/<id>.json: the record file exactly as submitted (byte-identical; its SHA-256 is the one the site shows).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { sha256Hex } from '../../core/crypto/sha256.ts';
import { allRecords, type RecordEntry } from '../../site/records.ts';

export const getStaticPaths = (async () =>
  (await allRecords()).map((entry) => ({ params: { id: entry.id }, props: { entry } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ entry: RecordEntry }> = ({ props: { entry } }) => {
  const bytes = Buffer.from(entry.body ?? '', 'utf8');
  // The loader stored the file's text; serve it only if it is still exactly the file that was validated and hashed.
  if (sha256Hex(bytes) !== entry.data.sha256) {
    throw new Error(`record ${entry.id} (${entry.data.path}): the stored text no longer matches the validated file`);
  }
  return new Response(bytes, { headers: { 'Content-Type': 'application/json' } });
};
