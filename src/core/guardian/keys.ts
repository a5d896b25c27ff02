/**
 * A guardian's identity is its key (DECISIONS 24): guardian_id is `guardian_ed25519_` followed by the first 16 hex
 * characters of the SHA-256 of the 32 raw public key bytes, and the key's SHA-256 is that whole digest.
 */
import type { KeyObject } from 'node:crypto';
import { KeyFormatError, parsePublicKey, rawPublicKeyOf } from '../crypto/ed25519.ts';
import { sha256Hex } from '../crypto/sha256.ts';

export const GUARDIAN_ID_PREFIX = 'guardian_ed25519_';

export interface GuardianKey {
  /** base64 of the 32 raw bytes (the record chain's form). */
  publicKey: string;
  /** SPKI PEM (the presence proof's form). */
  pem: string;
  /** Lowercase hex SHA-256 of the 32 raw bytes. */
  sha256: string;
  guardianId: string;
}

/** The guardian identity of a key given as base64 raw bytes, PEM, or a KeyObject; undefined when it is no Ed25519 key. */
export function guardianKeyOf(key: string | KeyObject): GuardianKey | undefined {
  let object: KeyObject;
  try {
    object = typeof key === 'string' ? parsePublicKey(key) : key;
  } catch (err) {
    if (err instanceof KeyFormatError) return undefined;
    throw err;
  }
  const raw = rawPublicKeyOf(object);
  const sha256 = sha256Hex(raw);
  return {
    publicKey: raw.toString('base64'),
    pem: object.export({ format: 'pem', type: 'spki' }).toString(),
    sha256,
    guardianId: GUARDIAN_ID_PREFIX + sha256.slice(0, 16),
  };
}
