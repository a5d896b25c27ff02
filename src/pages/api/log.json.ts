/**
 * /api/log.json: the transparency log's description for agents (src/core/log/publish.ts): its origin, the
 * verifier keys of the log signing keys (only the public halves), where the checkpoint and the tiles are.
 * The keys are the ones this build signs its checkpoint with (src/site/build/6-transparency-log.ts): without a key,
 * or without a log in the archive, no checkpoint is written and the document says none is published.
 */
import type { APIRoute } from 'astro';
import { logDocument } from '../../core/log/publish.ts';
import { handedOverArchive, readSiteArchive, siteLogOf } from '../../site/build/2-read-archive.ts';

export const GET: APIRoute = async () => {
  const records = handedOverArchive() ?? (await readSiteArchive());
  const verifiers = (siteLogOf(records)?.signers ?? []).map(({ name, keyId, publicKey, text }) => ({ name, keyId, publicKey, text }));
  return new Response(JSON.stringify(logDocument(verifiers), null, 2) + '\n', { headers: { 'Content-Type': 'application/json' } });
};
