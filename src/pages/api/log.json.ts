/**
 * /api/log.json: the transparency log's description for agents (src/core/log/publish.ts): its origin, the
 * verifier keys of the configured log signing keys (only the public halves), where the checkpoint and the tiles are.
 * Without a log key it says that no checkpoint is published.
 */
import type { APIRoute } from 'astro';
import { logDocument } from '../../core/log/publish.ts';
import { logSigners } from '../../core/log/signing-key.ts';

export const GET: APIRoute = () => {
  const verifiers = (logSigners() ?? []).map(({ name, keyId, publicKey, text }) => ({ name, keyId, publicKey, text }));
  return new Response(JSON.stringify(logDocument(verifiers), null, 2) + '\n', { headers: { 'Content-Type': 'application/json' } });
};
