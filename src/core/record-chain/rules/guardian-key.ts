/**
 * What the signing key K gives (docs/guardians.md sections 1 and 2, DECISIONS 24): a guardian's id and key hash are
 * derived from its key, never chosen. Shared by chain/guardian-id and chain/guardian-retirement-key.
 */
import { guardianKeyOf, type GuardianKey } from '../../guardian/keys.ts';
import { asObject, asString } from '../../rules/rule.ts';
import type { JsonObject } from '../types.ts';

/** The form the envelope schema requires of proof.public_key (base64 of 32 bytes). */
const PUBLIC_KEY_FORM = /^[A-Za-z0-9+/]{43}=$/;
export const GUARDIAN_ID_FORM = /^guardian_ed25519_[a-f0-9]{16}$/;
export const SHA256_FORM = /^[a-f0-9]{64}$/;

/**
 * The guardian identity of proof.public_key; undefined when the key is missing or unusable (the schema and
 * chain/signature report that: one problem, one finding).
 */
export function signingGuardianKey(submission: JsonObject): GuardianKey | undefined {
  const publicKey = asString(asObject(submission.proof)?.public_key);
  if (publicKey === undefined || !PUBLIC_KEY_FORM.test(publicKey)) return undefined;
  return guardianKeyOf(publicKey);
}
