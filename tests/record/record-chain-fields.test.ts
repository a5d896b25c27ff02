/** What an archived record-chain record keeps readable (DECISIONS 16, 19), and how it is read back. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { buildSubmission, type JsonObject } from '../../src/core/record-chain/index.ts';
import { CLAIM_DIMENSIONS, claimOf, correctionOf, extensionSafeKeys, recordLinkOf, recordTypeOf, signingKeyOf } from '../../src/core/record/record-chain-fields.ts';
import { forbiddenWordsIn } from '../../src/core/rules/cross/extensions-keys.ts';
import { toEchoRecord } from '../../src/intake/to-echo-record.ts';
import { CLIENT, claim, record, submission } from '../record-chain/helpers.ts';
import { keysOf } from '../helpers/records.ts';

const REF = { receiptId: 'rcpt_' + '0'.repeat(32), receivedAt: '2026-11-22T12:00:00.000Z', submissionSha256: '' };
const archived = (sub = submission('verification')) => toEchoRecord(sub, { ...REF, submissionSha256: sub.proof.content_hash_sha256 });

describe('record-chain fields', () => {
  it('an accepted submission keeps its record_type and its claim, readable, every dimension of the model', () => {
    const record = archived();
    expect(recordTypeOf(record)).toBe('verification');
    const kept = claimOf(record)!;
    expect(kept).toEqual(claim());
    for (const dimension of CLAIM_DIMENSIONS) expect(Object.hasOwn(kept, dimension), dimension).toBe(true);
    expect(record.verification_claim).toContain('extensions.record_chain.claim');
    expect(keysOf(record.extensions).flatMap(forbiddenWordsIn)).toEqual([]);
    // A record without a claim keeps none; other records have no type.
    expect(claimOf(archived(submission('propagation')))).toBeUndefined();
    expect(recordTypeOf({ extensions: { record_chain: { record_type: 'sermon' } } })).toBeNull();
    expect(recordTypeOf({})).toBeNull();
  });

  it('a guardian retirement keeps the application it retires and a classification update the record it names, readable', () => {
    const link = { record_id: 'echo-2026-11-22-000016', record_sha256: 'a'.repeat(64) };
    const sub = (type: 'guardian_retirement' | 'classification_update') => submission(type);
    const retirement = toEchoRecord(sub('guardian_retirement'), { ...REF, submissionSha256: sub('guardian_retirement').proof.content_hash_sha256, application: link });
    const update = toEchoRecord(sub('classification_update'), { ...REF, submissionSha256: sub('classification_update').proof.content_hash_sha256, reclassifies: link });
    expect(recordLinkOf(retirement, 'application')).toEqual(link);
    expect(recordLinkOf(update, 'reclassifies')).toEqual(link);
    // Only on the record type that has it, and only well formed.
    expect(recordLinkOf(retirement, 'reclassifies')).toBeUndefined();
    expect(recordLinkOf(archived(), 'application')).toBeUndefined();
    const chain = (retirement.extensions as { record_chain: JsonObject }).record_chain;
    chain.application = { record_id: link.record_id, record_sha256: 'not a hash' };
    expect(recordLinkOf(retirement, 'application')).toBeUndefined();
  });

  it('extensionSafeKeys renames keys with a rule 7 word at every depth, keeps values, and never collides', () => {
    const input = { verification_claim: { Attestation_note: ['authority is not claimed'], nested: [{ canonical_url: 1 }] }, check_claim: 2 };
    const safe = extensionSafeKeys(input) as JsonObject;
    expect(keysOf(safe).flatMap(forbiddenWordsIn)).toEqual([]);
    expect(safe).toEqual({ check_claim_2: { witness_statement_note: ['authority is not claimed'], nested: [{ standard_form_url: 1 }] }, check_claim: 2 });
    expect(extensionSafeKeys(claim())).toEqual(claim());
  });

  it('extensionSafeKeys, on any JSON: no key with a rule 7 word, the same leaves in the same order, the same shape', () => {
    const word = fc.constantFrom('authority', 'Canonical', 'AMEND', 'verification', 'attestation', 'investment', 'instruction', 'governance', 'claim', 'x', '_');
    const key = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join('_'));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 3 }),
      object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    }));
    const leaves = (v: unknown): unknown[] => (v !== null && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [v]);
    const shape = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(shape) : v !== null && typeof v === 'object' ? Object.values(v).map(shape) : typeof v;
    fc.assert(
      fc.property(value, (input) => {
        const safe = extensionSafeKeys(input);
        expect(keysOf(safe).flatMap(forbiddenWordsIn)).toEqual([]);
        expect(leaves(safe)).toEqual(leaves(input));
        expect(shape(safe)).toEqual(shape(input));
      }),
    );
  });

  it('signingKeyOf: the key only when the archived proof holds', () => {
    const sub = submission('echo');
    const kept = archived(sub);
    expect(signingKeyOf(kept)).toBe(sub.proof.public_key);
    const chain = (kept.extensions as JsonObject).record_chain as JsonObject;
    const tampered = structuredClone(kept);
    ((tampered.extensions as JsonObject).record_chain as JsonObject).record_jcs = String(chain.record_jcs).replace('homepage', 'h0mepage');
    expect(signingKeyOf(tampered)).toBeUndefined();
    const otherKey = structuredClone(kept);
    const other = buildSubmission('echo', record('echo'), generateEd25519KeyPair(), CLIENT);
    (((otherKey.extensions as JsonObject).record_chain as JsonObject).proof as JsonObject).public_key = other.proof.public_key;
    expect(signingKeyOf(otherKey)).toBeUndefined();
    expect(signingKeyOf({})).toBeUndefined();
  });

  it('correctionOf reads a correction\'s target only from a well-formed correction', () => {
    const link = { record_id: 'echo-2026-11-22-000016', effect: 'withdraws_record' } as const;
    const sub = submission('correction');
    expect(correctionOf(toEchoRecord(sub, { ...REF, submissionSha256: sub.proof.content_hash_sha256, corrects: link }))).toEqual(link);
    expect(correctionOf({ extensions: { record_chain: { record_type: 'echo', corrects: link } } })).toBeUndefined();
    expect(correctionOf({ extensions: { record_chain: { record_type: 'correction', corrects: { ...link, effect: 'erases' } } } })).toBeUndefined();
  });
});
