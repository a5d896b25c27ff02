/**
 * Ed25519 keys and signatures with Node's built-in crypto (no dependency; Node ≥ 20 everywhere the core runs).
 * Public keys travel as base64 of the 32 raw bytes, or as PEM (SPKI).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** DER prefix of an SPKI structure holding an Ed25519 key; the 32 raw key bytes follow it. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** DER prefix of a PKCS#8 structure holding an Ed25519 private key; the 32-byte seed follows it (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export class KeyFormatError extends Error {}

/** The 32 raw bytes of an Ed25519 public key (what RFC 8032 calls the public key). */
export function rawPublicKeyOf(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519_PREFIX.length);
}

/** The Ed25519 public key whose raw bytes are `raw`; throws KeyFormatError unless there are 32 of them. */
export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new KeyFormatError(`a raw Ed25519 key has 32 bytes; this one has ${raw.length}`);
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** The 32-byte seed an Ed25519 private key is made from (RFC 8032's "private key"). */
export function seedOf(privateKey: KeyObject): Buffer {
  return privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_ED25519_PREFIX.length);
}

/** The Ed25519 private key made from a 32-byte seed; throws KeyFormatError for another length. */
export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new KeyFormatError(`an Ed25519 seed has 32 bytes; this one has ${seed.length}`);
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** Accepts base64 of 32 raw bytes or a PEM public key; throws KeyFormatError otherwise. */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith('-----BEGIN')) {
      // createPublicKey would derive a public key from a private one: a private key here is a leak, not a key.
      if (!trimmed.startsWith('-----BEGIN PUBLIC KEY-----')) {
        throw new KeyFormatError(
          /PRIVATE KEY/.test(trimmed) ? 'this is a PRIVATE key: never publish it (generate a new key pair)' : 'the PEM block is not a public key',
        );
      }
      const key = createPublicKey(trimmed);
      if (key.asymmetricKeyType !== 'ed25519') throw new KeyFormatError('the PEM key is not an Ed25519 key');
      return key;
    }
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) throw new KeyFormatError('the key is neither base64 nor PEM');
    return publicKeyFromRaw(Buffer.from(trimmed, 'base64'));
  } catch (err) {
    if (err instanceof KeyFormatError) throw err;
    throw new KeyFormatError('the key could not be read as an Ed25519 public key');
  }
}

/** True when `signatureBase64` is a valid Ed25519 signature of `message` (UTF-8) by `publicKey`. */
export function verifyEd25519(publicKey: KeyObject, message: string, signatureBase64: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signatureBase64.trim())) return false;
  const signature = Buffer.from(signatureBase64, 'base64');
  if (signature.length !== 64) return false;
  return verify(null, Buffer.from(message, 'utf8'), publicKey, signature);
}

export function signEd25519(privateKey: KeyObject, message: string): string {
  return sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64');
}

export function publicKeyToBase64(key: KeyObject): string {
  return rawPublicKeyOf(key).toString('base64');
}

export interface Ed25519KeyPair {
  publicKey: KeyObject;
  privateKey: KeyObject;
}

export function generateEd25519KeyPair(): Ed25519KeyPair {
  return generateKeyPairSync('ed25519');
}

export function privateKeyFromPem(pem: string): KeyObject {
  return createPrivateKey(pem);
}

export type SignatureCheck = { ok: true } | { ok: false; field: 'public_key'; reason: string } | { ok: false; field: 'signature' };

/**
 * Checks a signature whose key arrives as text (a record's or a submission's proof): which field is at fault,
 * if any. One implementation for every proof the core verifies (DECISIONS 14 and the record-chain proof).
 */
export function checkSignature(publicKeyText: string, message: string, signatureBase64: string): SignatureCheck {
  let key: KeyObject;
  try {
    key = parsePublicKey(publicKeyText);
  } catch (err) {
    return { ok: false, field: 'public_key', reason: err instanceof KeyFormatError ? err.message : 'unreadable key' };
  }
  return verifyEd25519(key, message, signatureBase64) ? { ok: true } : { ok: false, field: 'signature' };
}
