import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateEd25519KeyPair,
  KeyFormatError,
  parsePublicKey,
  privateKeyFromSeed,
  publicKeyFromRaw,
  publicKeyToBase64,
  rawPublicKeyOf,
  seedOf,
  signEd25519,
  verifyEd25519,
} from '../../src/core/crypto/ed25519.ts';

// RFC 8032 section 7.1, TEST 1 (empty message) and TEST 2 (one byte 0x72, "r")
const VECTORS = [
  {
    secret: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    public: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    secret: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    public: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: 'r',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
];

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const privateFromSeed = (hex: string) => privateKeyFromSeed(Buffer.from(hex, 'hex'));

describe('Ed25519 (RFC 8032 vectors)', () => {
  it.each(VECTORS)('verifies and reproduces the signature for message %j', (v) => {
    const key = parsePublicKey(b64(v.public));
    expect(verifyEd25519(key, v.message, b64(v.signature))).toBe(true);
    expect(signEd25519(privateFromSeed(v.secret), v.message)).toBe(b64(v.signature));
    expect(publicKeyToBase64(key)).toBe(b64(v.public));
  });

  it('refuses a signature for another message or by another key', () => {
    const [v1, v2] = VECTORS;
    expect(verifyEd25519(parsePublicKey(b64(v1!.public)), 'x', b64(v1!.signature))).toBe(false);
    expect(verifyEd25519(parsePublicKey(b64(v2!.public)), v1!.message, b64(v1!.signature))).toBe(false);
  });
});

describe('sign / verify round trip', () => {
  const { publicKey, privateKey } = generateEd25519KeyPair();

  it('a fresh key pair signs and verifies a hex hash as UTF-8 text', () => {
    const message = 'a'.repeat(64);
    const sig = signEd25519(privateKey, message);
    expect(Buffer.from(sig, 'base64')).toHaveLength(64);
    expect(verifyEd25519(publicKey, message, sig)).toBe(true);
    // independently: node:crypto over the same bytes
    expect(verify(null, Buffer.from(message, 'utf8'), publicKey, Buffer.from(sig, 'base64'))).toBe(true);
    expect(verifyEd25519(publicKey, 'b'.repeat(64), sig)).toBe(false);
  });

  it.each([
    ['not base64', '!!!!'],
    ['empty', ''],
    ['63 bytes', Buffer.alloc(63).toString('base64')],
    ['65 bytes', Buffer.alloc(65).toString('base64')],
  ])('returns false, never throws, for a signature that is %s', (_what, sig) => {
    expect(verifyEd25519(publicKey, 'm', sig)).toBe(false);
  });
});

describe('parsePublicKey', () => {
  const { publicKey } = generateEd25519KeyPair();
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);

  it('reads base64 of the 32 raw bytes', () => {
    const key = parsePublicKey(raw.toString('base64'));
    expect(key.asymmetricKeyType).toBe('ed25519');
    expect(key.equals(publicKey)).toBe(true);
    expect(parsePublicKey(`  ${raw.toString('base64')}\n`).equals(publicKey)).toBe(true);
  });

  it('reads a PEM (SPKI) public key', () => {
    const pem = publicKey.export({ format: 'pem', type: 'spki' }) as string;
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(parsePublicKey(pem).equals(publicKey)).toBe(true);
    expect(parsePublicKey(`\n${pem}\n\n`).equals(publicKey)).toBe(true);
  });

  it('publicKeyToBase64 is the raw form parsePublicKey reads', () => {
    expect(publicKeyToBase64(publicKey)).toBe(raw.toString('base64'));
    expect(parsePublicKey(publicKeyToBase64(publicKey)).equals(publicKey)).toBe(true);
  });

  it.each([1, 16, 31, 33, 64])('rejects a raw key of %i bytes', (n) => {
    const text = Buffer.alloc(n, 1).toString('base64');
    expect(() => parsePublicKey(text)).toThrow(KeyFormatError);
    expect(() => parsePublicKey(text)).toThrow(`a raw Ed25519 key has 32 bytes; this one has ${n}`);
  });

  it.each(['', 'hello world', 'abc$', '-----BEGIN PUBLIC KEY-----\nnope\n-----END PUBLIC KEY-----'])('rejects %j', (text) => {
    expect(() => parsePublicKey(text)).toThrow(KeyFormatError);
  });

  it('rejects PEM keys of other algorithms', () => {
    for (const type of ['rsa', 'ec', 'ed448'] as const) {
      const opts = type === 'rsa' ? { modulusLength: 1024 } : type === 'ec' ? { namedCurve: 'P-256' } : {};
      const pem = (generateKeyPairSync(type as 'rsa', opts as { modulusLength: number }).publicKey.export({ format: 'pem', type: 'spki' }) as string);
      expect(() => parsePublicKey(pem)).toThrow('the PEM key is not an Ed25519 key');
    }
  });
});

describe('raw key bytes ⇄ KeyObject', () => {
  it.each(VECTORS)('the RFC 8032 seed gives the RFC public key, and both come back out unchanged', (v) => {
    const privateKey = privateKeyFromSeed(Buffer.from(v.secret, 'hex'));
    expect(seedOf(privateKey).toString('hex')).toBe(v.secret);
    expect(rawPublicKeyOf(createPublicKey(privateKey)).toString('hex')).toBe(v.public);
    const publicKey = publicKeyFromRaw(Buffer.from(v.public, 'hex'));
    expect(publicKey.equals(createPublicKey(privateKey))).toBe(true);
    expect(rawPublicKeyOf(publicKey).toString('hex')).toBe(v.public);
  });

  it('any 32-byte seed round-trips, and its key signs what its public key verifies', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        const privateKey = privateKeyFromSeed(seed);
        expect(seedOf(privateKey).equals(Buffer.from(seed))).toBe(true);
        const publicKey = publicKeyFromRaw(rawPublicKeyOf(createPublicKey(privateKey)));
        expect(verifyEd25519(publicKey, 'm', signEd25519(privateKey, 'm'))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it.each([0, 31, 33, 64])('refuses %i bytes as a raw public key or a seed', (n) => {
    expect(() => publicKeyFromRaw(Buffer.alloc(n, 1))).toThrow(`a raw Ed25519 key has 32 bytes; this one has ${n}`);
    expect(() => privateKeyFromSeed(Buffer.alloc(n, 1))).toThrow(KeyFormatError);
    expect(() => privateKeyFromSeed(Buffer.alloc(n, 1))).toThrow(`an Ed25519 seed has 32 bytes; this one has ${n}`);
  });
});
