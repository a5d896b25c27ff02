import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signRecordAuthorship } from '../../../src/core/crypto/authorship-proof.ts';
import { generateEd25519KeyPair } from '../../../src/core/crypto/ed25519.ts';
import { authorshipProof } from '../../../src/core/rules/cross/authorship-proof.ts';
import type { JsonObject } from '../../../src/core/rules/rule.ts';
import { referenceAuthorshipHash, referenceSha256 } from '../../helpers/jcs-reference.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText, REMOVE, validEcho } from '../../helpers/records.ts';

const RULE = 'cross/authorship-proof';
const alice = generateEd25519KeyPair();
const bob = generateEd25519KeyPair();

const signed = (record: JsonObject = validEcho(), keys = alice) => signRecordAuthorship(record, keys.privateKey, keys.publicKey);
const proofOf = (record: JsonObject) => record.authorship_proof as Record<string, string>;

function onlyFinding(record: JsonObject) {
  const diags = judge(record);
  expect(otherThan(errors(diags), RULE)).toEqual([]);
  const found = ofRule(diags, RULE);
  expect(found).toHaveLength(1);
  return found[0]!;
}

const CLAIM = {
  schema: 'service.echo-authorship-claim.v1',
  claim_id: 'claim-1',
  target_record_hash_sha256: 'a'.repeat(64),
  challenge: {
    nonce: 'n-1',
    created_at_utc: '2026-05-01T00:00:00Z',
    expires_at_utc: '2026-05-02T00:00:00Z',
    challenge_hash_sha256: 'b'.repeat(64),
  },
  claim_method: 'self_reported_only',
  claim_result: 'self_reported_only',
  boundaries: {
    does_not_prove_truth: true,
    does_not_raise_verification_level: true,
    does_not_create_authority: true,
    does_not_create_attestation: true,
    does_not_prove_same_conscious_subject: true,
  },
};

describe(RULE, () => {
  it('is the module of that id', () => expect(authorshipProof.id).toBe(RULE));

  describe('valid proofs pass', () => {
    it('a record signed with signRecordAuthorship (raw base64 key)', () => {
      const record = signed();
      expect(proofOf(record).content_hash_sha256).toBe(referenceAuthorshipHash(record));
      expect(proofOf(record).public_key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(judge(record)).toEqual([]);
    });

    it('the same proof with the key written as PEM', () => {
      const record = signed();
      proofOf(record).public_key = alice.publicKey.export({ format: 'pem', type: 'spki' }) as string;
      expect(judge(record)).toEqual([]);
    });

    it('key order and authorship_claims do not change what is signed', () => {
      const record = signed();
      const reordered = Object.fromEntries(Object.entries(record).reverse());
      reordered.authorship_claims = [CLAIM];
      expect(judge(reordered)).toEqual([]);
    });

    it('a proof made by hand, per DECISIONS 14, with node:crypto only', () => {
      const record = validEcho();
      const hash = referenceAuthorshipHash(record);
      record.authorship_proof = {
        method: 'ed25519_signature',
        proof_strength: 'cryptographic',
        public_key: alice.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64'),
        canonicalization: 'JCS-RFC8785',
        content_hash_sha256: hash,
        signature: sign(null, Buffer.from(hash, 'utf8'), alice.privateKey).toString('base64'),
      };
      expect(judge(record)).toEqual([]);
    });

    it('other methods are not verified here', () => {
      const record = echoWith({
        '/authorship_proof': { method: 'self_reported_only', proof_strength: 'weak', public_key: 'junk', signature: 'junk' },
      });
      expect(judge(record)).toEqual([]);
    });
  });

  describe('tampered content', () => {
    it('a field changed after signing breaks the content hash', () => {
      const record = echoWith({ '/echo': 'A different echo.' }, signed());
      const d = onlyFinding(record);
      expect(d.pointer).toBe('/authorship_proof/content_hash_sha256');
      expect(d.message).toMatch(/does not match the record: the record changed after it was signed/);
      // the hint names the record's actual hash, independently computed, not the stale one
      expect(d.hint).toContain(referenceAuthorshipHash(record));
      expect(d.hint).not.toContain(proofOf(record).content_hash_sha256);
      expect(d.line).toBe(lineOf(recordText(record), '"content_hash_sha256"'));
    });

    it('a removed field breaks it too', () => {
      const d = onlyFinding(echoWith({ '/extensions': REMOVE }, signed()));
      expect(d.pointer).toBe('/authorship_proof/content_hash_sha256');
    });

    it('a claimed hash that is consistent with the signature but not with the record', () => {
      const record = signed();
      const other = referenceAuthorshipHash(echoWith({ '/echo': 'something else' }));
      proofOf(record).content_hash_sha256 = other;
      proofOf(record).signature = sign(null, Buffer.from(other), alice.privateKey).toString('base64');
      expect(onlyFinding(record).pointer).toBe('/authorship_proof/content_hash_sha256');
    });
  });

  describe('wrong canonicalization', () => {
    it('a hash over the pretty-printed (non-canonical) record does not match', () => {
      const record = validEcho();
      const hash = referenceSha256(JSON.stringify(record, null, 2));
      record.authorship_proof = {
        method: 'ed25519_signature',
        proof_strength: 'cryptographic',
        public_key: proofOf(signed()).public_key,
        canonicalization: 'JCS-RFC8785',
        content_hash_sha256: hash,
        signature: sign(null, Buffer.from(hash), alice.privateKey).toString('base64'),
      };
      expect(onlyFinding(record).pointer).toBe('/authorship_proof/content_hash_sha256');
    });

    it.each(['JCS', 'jcs-rfc8785', 'none', 'RFC8785'])('canonicalization %j is refused', (value) => {
      const record = signed();
      proofOf(record).canonicalization = value;
      const d = onlyFinding(record);
      expect(d.pointer).toBe('/authorship_proof/canonicalization');
      expect(d.message).toBe(`authorship_proof.canonicalization must be "JCS-RFC8785" (found ${JSON.stringify(value)})`);
      expect(d.hint).toMatch(/RFC 8785/);
    });
  });

  describe('bad signature', () => {
    const cases: Array<[string, (r: JsonObject) => void]> = [
      ['one bit flipped', (r) => {
        const sig = Buffer.from(proofOf(r).signature!, 'base64');
        sig[10] = sig[10]! ^ 0x01;
        proofOf(r).signature = sig.toString('base64');
      }],
      ['made by another key', (r) => {
        proofOf(r).signature = sign(null, Buffer.from(proofOf(r).content_hash_sha256!), bob.privateKey).toString('base64');
      }],
      ['over the raw digest bytes instead of its hex text', (r) => {
        proofOf(r).signature = sign(null, Buffer.from(proofOf(r).content_hash_sha256!, 'hex'), alice.privateKey).toString('base64');
      }],
      ['not base64', (r) => { proofOf(r).signature = 'not a signature!'; }],
      ['too short', (r) => { proofOf(r).signature = Buffer.alloc(63).toString('base64'); }],
      ['empty', (r) => { proofOf(r).signature = ''; }],
      ['the public key of someone else', (r) => { proofOf(r).public_key = proofOf(signed(validEcho(), bob)).public_key!; }],
    ];
    it.each(cases)('signature %s', (_what, spoil) => {
      const record = signed();
      spoil(record);
      const d = onlyFinding(record);
      expect(d.pointer).toBe('/authorship_proof/signature');
      expect(d.message).toBe('authorship_proof.signature is not a valid Ed25519 signature of content_hash_sha256 by public_key');
      expect(d.hint).toMatch(/64-character hex content hash/);
    });
  });

  describe('bad key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }) as string;
    it.each([
      ['not a key at all', 'not a key!', 'the key is neither base64 nor PEM'],
      ['31 raw bytes', Buffer.alloc(31, 7).toString('base64'), 'a raw Ed25519 key has 32 bytes; this one has 31'],
      ['33 raw bytes', Buffer.alloc(33, 7).toString('base64'), 'a raw Ed25519 key has 32 bytes; this one has 33'],
      ['an RSA PEM key', rsa, 'the PEM key is not an Ed25519 key'],
      ['a broken PEM', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n', 'the key could not be read as an Ed25519 public key'],
    ])('%s', (_what, key, reason) => {
      const record = signed();
      proofOf(record).public_key = key;
      const d = onlyFinding(record);
      expect(d.pointer).toBe('/authorship_proof/public_key');
      expect(d.message).toBe(`authorship_proof.public_key cannot be used: ${reason}`);
      expect(d.hint).toMatch(/base64 of its 32 raw bytes, or as a PEM public key/);
    });
  });

  it('a signed record with an unpaired surrogate (a \\uD800 escape) is refused at that string, not thrown', () => {
    // Strict JSON lets the escape through; RFC 8785 refuses it, so there is no content hash (found by tests/fuzz).
    const record = { ...signed(), understanding_summary: 'cut in half: \ud83d' };
    const d = onlyFinding(record);
    expect(d.pointer).toBe('/understanding_summary');
    expect(d.message).toMatch(/unpaired UTF-16 surrogate/);
    // outside what the proof covers (authorship_claims) it does not matter to this rule
    expect(ofRule(judge({ ...signed(), authorship_claims: ['\udc00'] } as JsonObject), RULE)).toEqual([]);
  });

  it('missing proof fields are the schema\'s to report, not this rule\'s', () => {
    const record = signed();
    delete proofOf(record).signature;
    delete proofOf(record).canonicalization;
    const diags = judge(record);
    expect(ofRule(diags, RULE)).toEqual([]);
    expect(ofRule(diags, 'schema/required').map((d) => [d.pointer, d.message])).toEqual([
      ['/authorship_proof', 'missing required fields in /authorship_proof: canonicalization, signature'],
    ]);
  });

  // Known gap (src/core/crypto/ed25519.ts, reported to the lead): createPublicKey() derives a public key from a
  // PRIVATE key PEM, so a record that publishes its private key in public_key still verifies. When parsePublicKey
  // refuses private keys, this test starts to pass: turn `it.fails` into `it`.
  it('refuses a private key written into public_key', () => {
    const record = signed();
    proofOf(record).public_key = alice.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(ofRule(judge(record), RULE).map((d) => d.pointer)).toEqual(['/authorship_proof/public_key']);
  });
});
