import { unpairedSurrogateAt, unpairedSurrogateWords } from '../../canonical/jcs.ts';
import { asObject, asString, violation } from '../../rules/rule.ts';
import { submissionSha256 } from '../envelope.ts';
import type { ChainRule } from './rule.ts';

/** DECISIONS "Record-chain submissions" with DECISIONS 14: the proof's hash is that of the JCS canonical record. */
export const contentHash: ChainRule = {
  id: 'chain/content-hash',
  summary: 'proof.content_hash_sha256 is the SHA-256 of the JCS canonical record (DECISIONS 14, "Record-chain submissions").',
  check({ submission, record, recordSha256 }) {
    const claimed = asString(asObject(submission.proof)?.content_hash_sha256);
    if (!record || claimed === undefined) return []; // missing or mistyped: the schema reports it
    const unhashable = recordSha256 === undefined ? unpairedSurrogateAt(record, '/record') : undefined;
    if (unhashable) {
      const { message, hint } = unpairedSurrogateWords(unhashable.pointer, unhashable.at);
      return [violation(this.id, unhashable.pointer, message, hint, unhashable.at)];
    }
    const actual = recordSha256 ?? submissionSha256(record);
    if (claimed === actual) return [];
    return [
      violation(
        this.id,
        '/proof/content_hash_sha256',
        'proof.content_hash_sha256 does not match the record: the record changed after it was signed, or the hash was taken over another form',
        `The record's hash is ${actual} (SHA-256 of its RFC 8785 canonical form). Rebuild and re-sign the submission with the builder instead of editing it by hand.`,
      ),
    ];
  },
};
