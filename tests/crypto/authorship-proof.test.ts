import { verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AUTHORSHIP_CANONICALIZATION,
  authorshipContent,
  authorshipContentHash,
  signRecordAuthorship,
} from '../../src/core/crypto/authorship-proof.ts';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { referenceAuthorshipHash, referenceJcs, referenceSha256 } from '../helpers/jcs-reference.ts';
import { validEcho } from '../helpers/records.ts';

describe('authorship proof binding (DECISIONS 14)', () => {
  const keys = generateEd25519KeyPair();

  it('the content is the record without authorship_proof and authorship_claims, and nothing else', () => {
    const record = { ...validEcho(), authorship_proof: { x: 1 }, authorship_claims: [1] };
    const content = authorshipContent(record);
    expect(Object.keys(content).sort()).toEqual(Object.keys(validEcho()).sort());
    expect(record.authorship_proof).toEqual({ x: 1 }); // the input is not changed
  });

  it('the content hash is the hex SHA-256 of its JCS canonical text', () => {
    const record = validEcho();
    expect(authorshipContentHash(record)).toBe(referenceSha256(referenceJcs(record)));
    expect(authorshipContentHash({ ...record, authorship_proof: {}, authorship_claims: [] })).toBe(referenceSha256(referenceJcs(record)));
  });

  it('signRecordAuthorship writes a complete ed25519_signature proof that node:crypto verifies', () => {
    const record = validEcho();
    const signed = signRecordAuthorship(record, keys.privateKey, keys.publicKey);
    expect('authorship_proof' in record).toBe(false);
    const proof = signed.authorship_proof as Record<string, string>;
    expect(Object.keys(proof).sort()).toEqual(
      ['canonicalization', 'content_hash_sha256', 'method', 'proof_strength', 'public_key', 'signature'].sort(),
    );
    expect(proof).toMatchObject({ method: 'ed25519_signature', proof_strength: 'cryptographic', canonicalization: 'JCS-RFC8785' });
    expect(AUTHORSHIP_CANONICALIZATION).toBe('JCS-RFC8785');
    expect(proof.content_hash_sha256).toBe(referenceAuthorshipHash(signed));
    // the signature covers the 64-character hex text (UTF-8), not the raw digest
    expect(verify(null, Buffer.from(proof.content_hash_sha256!, 'utf8'), keys.publicKey, Buffer.from(proof.signature!, 'base64'))).toBe(true);
    expect(Buffer.from(proof.public_key!, 'base64').equals(keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12))).toBe(true);
  });

  it('re-signing replaces an old proof instead of covering it', () => {
    const once = signRecordAuthorship(validEcho(), keys.privateKey, keys.publicKey);
    const twice = signRecordAuthorship(once, keys.privateKey, keys.publicKey);
    expect((twice.authorship_proof as Record<string, string>).content_hash_sha256).toBe(
      (once.authorship_proof as Record<string, string>).content_hash_sha256,
    );
  });
});
