import { unpairedSurrogateAt, unpairedSurrogateWords } from '../../canonical/jcs.ts';
import { AUTHORSHIP_CANONICALIZATION, authorshipContent, authorshipContentHash } from '../../crypto/authorship-proof.ts';
import { checkSignature } from '../../crypto/ed25519.ts';
import { asObject, asString, violation, type RecordRule } from '../rule.ts';

/** DECISIONS 14: an ed25519_signature proof must verify against the record's canonical content. */
export const authorshipProof: RecordRule = {
  id: 'cross/authorship-proof',
  summary:
    'An ed25519_signature authorship proof signs the hex SHA-256 of the JCS-canonical record without authorship_proof/authorship_claims (DECISIONS 14).',
  check({ record }) {
    const proof = asObject(record.authorship_proof);
    if (!proof || proof.method !== 'ed25519_signature') return [];
    const claimedHash = asString(proof.content_hash_sha256);
    const publicKey = asString(proof.public_key);
    const signature = asString(proof.signature);
    // Missing or mistyped fields are the schema's to report; this rule checks what the fields say.
    if (claimedHash === undefined || publicKey === undefined || signature === undefined) return [];
    if (proof.canonicalization !== undefined && proof.canonicalization !== AUTHORSHIP_CANONICALIZATION) {
      return [
        violation(
          this.id,
          '/authorship_proof/canonicalization',
          `authorship_proof.canonicalization must be "${AUTHORSHIP_CANONICALIZATION}" (found ${JSON.stringify(proof.canonicalization)})`,
          `Sign the RFC 8785 canonical form of the record and write canonicalization "${AUTHORSHIP_CANONICALIZATION}".`,
        ),
      ];
    }
    const unhashable = unpairedSurrogateAt(authorshipContent(record));
    if (unhashable) {
      const { message, hint } = unpairedSurrogateWords(unhashable.pointer, unhashable.at);
      return [violation(this.id, unhashable.pointer, message, hint, unhashable.at)];
    }
    const actualHash = authorshipContentHash(record);
    if (claimedHash !== actualHash) {
      return [
        violation(
          this.id,
          '/authorship_proof/content_hash_sha256',
          'authorship_proof.content_hash_sha256 does not match the record: the record changed after it was signed, or the hash was taken over another form',
          `The record's content hash is ${actualHash} (SHA-256 of its JCS canonical form without authorship_proof and authorship_claims). Re-sign the record as it stands now.`,
        ),
      ];
    }
    const check = checkSignature(publicKey, claimedHash, signature);
    if (check.ok) return [];
    if (check.field === 'public_key') {
      return [
        violation(
          this.id,
          '/authorship_proof/public_key',
          `authorship_proof.public_key cannot be used: ${check.reason}`,
          'Write the Ed25519 public key as base64 of its 32 raw bytes, or as a PEM public key.',
        ),
      ];
    }
    return [
      violation(
        this.id,
        '/authorship_proof/signature',
        'authorship_proof.signature is not a valid Ed25519 signature of content_hash_sha256 by public_key',
        'Sign the 64-character hex content hash (as UTF-8 text) with the private key matching public_key, and write the signature in base64.',
      ),
    ];
  },
};
