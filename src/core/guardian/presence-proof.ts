/**
 * The guardian presence proof (`/api/guardian-presence-proof-schema.v1.json`) in the form the archive writes and
 * checks (docs/guardians.md, section 3): the record chain's own signature, which is over the hex SHA-256 of the
 * signed record's JCS text, restated as a record-bound proof of key possession. Nothing more: it proves who held
 * the key, never authority, identity or truth.
 */
import { checkSignature } from '../crypto/ed25519.ts';
import { sha256Hex } from '../crypto/sha256.ts';
import { guardianKeyOf } from './keys.ts';

type Json = Record<string, unknown>;

export const PRESENCE_PROOF_SCHEMA = 'service.guardian-presence-proof.v1';

export const PRESENCE_PROOF_DOES_NOT_PROVE = [
  'authority of any kind',
  'the identity of the agent or person behind the key',
  'the truth of anything the record says',
  'any verification level',
  'independent attestation',
] as const;

export interface SignedRecordProof {
  /** base64 of the 32 raw bytes of the signing key. */
  publicKey: string;
  /** The submission_sha256: hex SHA-256 of the signed record's JCS text, which is the message signed. */
  contentSha256: string;
  signature: string;
  /** When the gateway received it (RFC 3339). */
  createdAt: string;
}

/** The presence proof of a record-chain record signed by `proof`; undefined when the key is no Ed25519 key. */
export function presenceProofOf(proof: SignedRecordProof): Json | undefined {
  const key = guardianKeyOf(proof.publicKey);
  if (!key) return undefined;
  return {
    schema: PRESENCE_PROOF_SCHEMA,
    proof_mode: 'record_bound',
    method: 'guardian_key_signature',
    algorithm: 'ed25519',
    guardian_id: key.guardianId,
    public_key_pem: key.pem,
    public_key_sha256: key.sha256,
    signed_payload_sha256: proof.contentSha256,
    challenge: proof.contentSha256,
    challenge_sha256: sha256Hex(proof.contentSha256),
    signature_base64: proof.signature,
    signed_message: proof.contentSha256,
    created_at: proof.createdAt,
    proof_scope: 'key_possession_only',
    does_not_prove: [...PRESENCE_PROOF_DOES_NOT_PROVE],
  };
}

export interface PresenceProofCheck {
  signature_valid: boolean;
  guardian_id_matches_public_key: boolean;
  payload_hash_matches: boolean;
  /** What failed, in plain words (empty when all three hold). */
  errors: string[];
  /** The key's identity, when the PEM is an Ed25519 key. */
  key?: { sha256: string; guardianId: string; publicKey: string };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Checks a presence proof on its own and against the record it is bound to: the signature by its PEM key over
 * signed_message; guardian_id and public_key_sha256 derived from that key; signed_message, challenge and
 * signed_payload_sha256 the same value with challenge_sha256 its hash; and, when `signedSha256` is given (the hex
 * SHA-256 of the record's signed JCS text), signed_payload_sha256 equal to it.
 */
export function checkPresenceProof(proof: Json, signedSha256?: string): PresenceProofCheck {
  const errors: string[] = [];
  const pem = str(proof.public_key_pem) ?? '';
  const key = guardianKeyOf(pem);
  const message = str(proof.signed_message) ?? '';
  const signature = str(proof.signature_base64) ?? '';
  let signatureValid = false;
  if (!key) errors.push('public_key_pem is not an Ed25519 public key');
  else {
    signatureValid = checkSignature(pem, message, signature).ok;
    if (!signatureValid) errors.push('signature_base64 is not a signature of signed_message by public_key_pem');
  }
  const idMatches = key !== undefined && proof.guardian_id === key.guardianId && proof.public_key_sha256 === key.sha256;
  if (key && !idMatches) {
    errors.push(`guardian_id and public_key_sha256 must be derived from the key: ${key.guardianId} and ${key.sha256}`);
  }
  const payload = str(proof.signed_payload_sha256);
  let payloadMatches =
    payload !== undefined && message === payload && proof.challenge === payload && proof.challenge_sha256 === sha256Hex(payload);
  if (!payloadMatches) errors.push('signed_message, challenge and signed_payload_sha256 must be the same hash, and challenge_sha256 its SHA-256');
  if (signedSha256 !== undefined && payload !== signedSha256) {
    payloadMatches = false;
    errors.push(`signed_payload_sha256 must be the SHA-256 of the record's signed content (${signedSha256})`);
  }
  return {
    signature_valid: signatureValid,
    guardian_id_matches_public_key: idMatches,
    payload_hash_matches: payloadMatches,
    errors,
    ...(key ? { key: { sha256: key.sha256, guardianId: key.guardianId, publicKey: key.publicKey } } : {}),
  };
}
