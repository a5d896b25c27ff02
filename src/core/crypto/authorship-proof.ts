/**
 * The authorship proof binding (DECISIONS 14): the signature covers the hex SHA-256 of the JCS canonical record
 * without its `authorship_proof` and `authorship_claims`. Used by the validator (verify) and by tools that sign.
 * Key possession only: a proof never changes a record's authority or verification level.
 */
import type { KeyObject } from 'node:crypto';
import { canonicalSha256 } from './sha256.ts';
import { publicKeyToBase64, signEd25519 } from './ed25519.ts';

export const AUTHORSHIP_CANONICALIZATION = 'JCS-RFC8785';

/** The record content an authorship proof covers. */
export function authorshipContent(record: Record<string, unknown>): Record<string, unknown> {
  const { authorship_proof: _proof, authorship_claims: _claims, ...content } = record;
  return content;
}

export function authorshipContentHash(record: Record<string, unknown>): string {
  return canonicalSha256(authorshipContent(record));
}

/** Returns the record with a fresh ed25519_signature authorship proof over its current content. */
export function signRecordAuthorship<T extends Record<string, unknown>>(record: T, privateKey: KeyObject, publicKey: KeyObject): T {
  const hash = authorshipContentHash(record);
  return {
    ...record,
    authorship_proof: {
      method: 'ed25519_signature',
      proof_strength: 'cryptographic',
      public_key: publicKeyToBase64(publicKey),
      canonicalization: AUTHORSHIP_CANONICALIZATION,
      content_hash_sha256: hash,
      signature: signEd25519(privateKey, hash),
    },
  };
}
