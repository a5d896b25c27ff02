import { checkPresenceProof } from '../../guardian/presence-proof.ts';
import { recordChainOf } from '../../record/record-chain-fields.ts';
import { asObject, asString, violation, type RecordRule } from '../rule.ts';

const PROOF = '/guardian_presence_proof';

/** The presence proof's fields the check reads: when one is missing or not text, the schema says so, not this rule. */
const READ = ['guardian_id', 'public_key_pem', 'public_key_sha256', 'signed_payload_sha256', 'challenge', 'challenge_sha256', 'signature_base64', 'signed_message'] as const;

const HINTS: Record<string, string> = {
  public_key_pem: 'Write the guardian\'s Ed25519 public key as an SPKI PEM ("-----BEGIN PUBLIC KEY-----" …).',
  signature_base64:
    'signature_base64 must be the key\'s Ed25519 signature of signed_message (for a record-chain record, the record chain\'s own signature of its submission_sha256: docs/guardians.md section 3). A proof cannot be edited by hand: have the key sign again.',
  guardian_id: 'guardian_id is "guardian_ed25519_" and the first 16 hex characters of the SHA-256 of the key\'s 32 raw bytes; public_key_sha256 is that whole SHA-256.',
  signed_message:
    'signed_message, challenge and signed_payload_sha256 are the same hex SHA-256 (for a record-chain record, its submission_sha256), and challenge_sha256 is the SHA-256 of that text.',
  signed_payload_sha256:
    'For a record-chain record the proof signs its submission_sha256 (the SHA-256 of extensions.record_chain.record_jcs): a proof made for other content does not show that the key signed this record.',
};

/**
 * DECISIONS 24 (docs/guardians.md section 3): a guardian_presence_proof holds — the signature by its PEM key over
 * signed_message, guardian_id and public_key_sha256 derived from that key, the payload hashes consistent and, on a
 * record-chain record, bound to its submission_sha256. The check is the core's (checkPresenceProof); each thing that
 * failed is one finding at the field it names.
 */
export const guardianPresenceProof: RecordRule = {
  id: 'cross/guardian-presence-proof',
  summary:
    'A guardian_presence_proof holds: signed by its key, its guardian id and key hash derived from the key, bound to the record\'s signed content (DECISIONS 24).',
  check({ record }) {
    const proof = asObject(record.guardian_presence_proof);
    if (!proof || READ.some((f) => asString(proof[f]) === undefined)) return [];
    const chain = recordChainOf(record);
    const signed = asString(chain?.submission_sha256);
    if (chain && signed === undefined) {
      return [
        violation(
          this.id,
          '/extensions/record_chain',
          'the guardian presence proof cannot be bound to this record: extensions.record_chain has no submission_sha256 (the SHA-256 of the signed record_jcs)',
          'Keep extensions.record_chain as intake accept wrote it: submission_sha256 is the hex SHA-256 of record_jcs, which the presence proof signs.',
        ),
      ];
    }
    const check = checkPresenceProof(proof, signed);
    return check.errors.map((error) => {
      let field = /^[a-z0-9_]+/.exec(error)?.[0] ?? '';
      // The id error names both fields: point at the one that is wrong.
      if (field === 'guardian_id' && check.key && proof.guardian_id === check.key.guardianId) field = 'public_key_sha256';
      const hint = HINTS[field === 'public_key_sha256' ? 'guardian_id' : field] ?? HINTS.signed_message!;
      return violation(this.id, field in proof ? `${PROOF}/${field}` : PROOF, `the guardian presence proof does not hold: ${error}`, hint);
    });
  },
};
