import { unpairedSurrogateAt } from '../../canonical/jcs.ts';
import { checkSignature } from '../../crypto/ed25519.ts';
import { asObject, asString, violation } from '../../rules/rule.ts';
import { submissionSha256 } from '../envelope.ts';
import type { ChainRule } from './rule.ts';

/** The forms the envelope schema requires: base64 of 32 and of 64 bytes. */
const PUBLIC_KEY_FORM = /^[A-Za-z0-9+/]{43}=$/;
const SIGNATURE_FORM = /^[A-Za-z0-9+/]{86}==$/;

/**
 * The proof's signature is an Ed25519 signature, by proof.public_key, of the 64-character hex content hash.
 * Checked only when the hash matches the record (chain/content-hash reports a mismatch): one problem, one finding.
 */
export const signature: ChainRule = {
  id: 'chain/signature',
  summary: 'proof.signature is a valid Ed25519 signature by proof.public_key of the hex content hash (DECISIONS 14).',
  check({ submission, record, recordSha256 }) {
    const proof = asObject(submission.proof);
    const hash = asString(proof?.content_hash_sha256);
    const publicKey = asString(proof?.public_key);
    const sig = asString(proof?.signature);
    if (!record || hash === undefined || publicKey === undefined || sig === undefined) return [];
    // Fields of the wrong form are the schema's to report (schema/pattern): one problem, one finding.
    if (!PUBLIC_KEY_FORM.test(publicKey) || !SIGNATURE_FORM.test(sig)) return [];
    if (hash !== (recordSha256 ?? (unpairedSurrogateAt(record) ? undefined : submissionSha256(record)))) return [];
    const check = checkSignature(publicKey, hash, sig);
    if (check.ok) return [];
    if (check.field === 'public_key') {
      return [
        violation(
          this.id,
          '/proof/public_key',
          `proof.public_key cannot be used: ${check.reason}`,
          'Write the Ed25519 public key as base64 of its 32 raw bytes (the builder does this).',
        ),
      ];
    }
    return [
      violation(
        this.id,
        '/proof/signature',
        'proof.signature is not a valid Ed25519 signature of content_hash_sha256 by proof.public_key',
        'Sign the 64-character hex content hash (as UTF-8 text) with the private key matching public_key; the builder does this when it builds the submission.',
      ),
    ];
  },
};
