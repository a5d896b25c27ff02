/**
 * C2SP signed-note (https://c2sp.org/signed-note) with Ed25519 keys (signature type 0x01): the text, a blank line,
 * then one line per signature, `— <key name> base64(key ID (4 bytes) || signature)`. Opening a note follows Go's
 * reference implementation (golang.org/x/mod/sumdb/note): signatures by unknown keys are ignored, a bad signature
 * by a known key rejects the note, and a note needs at least one verified signature.
 *
 *   verifier key  <name>+<key ID, 8 hex>+base64(0x01 || 32-byte public key)
 *   signer key    PRIVATE+KEY+<name>+<key ID>+base64(0x01 || 32-byte seed)
 *   key ID        the first 4 bytes of SHA-256(<name> || 0x0A || 0x01 || public key)
 *
 * Keys are node:crypto Ed25519 keys; no dependency. Hand-written (about 150 lines): no npm package implements
 * signed notes, and Sigstore's checkpoint check is internal to @sigstore/verify and verify-only.
 */
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { privateKeyFromSeed, publicKeyFromRaw, rawPublicKeyOf, seedOf } from '../crypto/ed25519.ts';

const ED25519_TYPE = 0x01;
const SIGNATURE_PREFIX = '\u2014 ';
const MAX_SIGNATURES = 100;

export class NoteError extends Error {
  override name = 'NoteError';
  readonly kind: 'malformed' | 'invalid-signature' | 'no-verified-signature' | 'bad-key';
  constructor(kind: NoteError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

export interface NoteVerifier {
  name: string;
  keyId: number;
  publicKey: KeyObject;
  /** The verifier key string (name+id+key). */
  text: string;
}

export interface NoteSigner extends NoteVerifier {
  privateKey: KeyObject;
}

/** A key name: non-empty, no white space, no "+". */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

export function noteKeyId(name: string, rawPublicKey: Uint8Array): number {
  const digest = createHash('sha256').update(name, 'utf8').update(Buffer.from([0x0a, ED25519_TYPE])).update(rawPublicKey).digest();
  return digest.readUInt32BE(0);
}

function hex8(id: number): string {
  return id.toString(16).padStart(8, '0');
}

/** `<name>+<key ID, 8 hex>`: how a key is named inside verifier and signer keys, and in messages. */
export function keyTag(key: { name: string; keyId: number }): string {
  return `${key.name}+${hex8(key.keyId)}`;
}

function verifierFrom(name: string, publicKey: KeyObject): NoteVerifier {
  const raw = rawPublicKeyOf(publicKey);
  const keyId = noteKeyId(name, raw);
  return { name, keyId, publicKey, text: `${keyTag({ name, keyId })}+${Buffer.concat([Buffer.from([ED25519_TYPE]), raw]).toString('base64')}` };
}

/** Splits at the first n-1 "+" signs; undefined when there are fewer. */
function splitKey(text: string, n: number): string[] | undefined {
  const parts: string[] = [];
  let rest = text;
  for (let i = 0; i < n - 1; i++) {
    const at = rest.indexOf('+');
    if (at < 0) return undefined;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  parts.push(rest);
  return parts;
}

/** Reads `<name>+<id>+<base64 key>`; throws NoteError('bad-key') with the reason. */
export function parseVerifierKey(text: string): NoteVerifier {
  // The base64 key may itself contain "+": split at the first two only (as Go's note.NewVerifier does).
  const parts = splitKey(text.trim(), 3);
  if (!parts) throw new NoteError('bad-key', 'a verifier key is <name>+<8 hex key ID>+<base64 key>');
  const [name, id, key] = parts as [string, string, string];
  if (!isValidKeyName(name)) throw new NoteError('bad-key', `"${name}" is not a valid key name`);
  if (!/^[0-9a-f]{8}$/.test(id)) throw new NoteError('bad-key', `the key ID "${id}" is not 8 lowercase hex digits`);
  const bytes = Buffer.from(key, 'base64');
  if (bytes.length !== 33 || bytes[0] !== ED25519_TYPE || bytes.toString('base64') !== key) {
    throw new NoteError('bad-key', 'the key is not base64 of 0x01 followed by a 32-byte Ed25519 public key');
  }
  const raw = bytes.subarray(1);
  if (noteKeyId(name, raw) !== Number.parseInt(id, 16)) throw new NoteError('bad-key', `the key ID ${id} does not match the key and name`);
  return verifierFrom(name, publicKeyFromRaw(raw));
}

/** Reads `PRIVATE+KEY+<name>+<id>+<base64 seed>`; throws NoteError('bad-key'). Never echoes the key. */
export function parseSignerKey(text: string): NoteSigner {
  const parts = splitKey(text.trim(), 5);
  if (!parts || parts[0] !== 'PRIVATE' || parts[1] !== 'KEY') throw new NoteError('bad-key', 'a signer key is PRIVATE+KEY+<name>+<8 hex key ID>+<base64 key>');
  const [, , name, id, key] = parts as [string, string, string, string, string];
  if (!isValidKeyName(name)) throw new NoteError('bad-key', `"${name}" is not a valid key name`);
  const bytes = Buffer.from(key, 'base64');
  if (bytes.length !== 33 || bytes[0] !== ED25519_TYPE || bytes.toString('base64') !== key) {
    throw new NoteError('bad-key', 'the signer key is not base64 of 0x01 followed by a 32-byte Ed25519 seed');
  }
  const privateKey = privateKeyFromSeed(bytes.subarray(1));
  const verifier = verifierFrom(name, createPublicKey(privateKey));
  if (hex8(verifier.keyId) !== id) throw new NoteError('bad-key', `the signer key's ID ${id} does not match its key and name`);
  return { ...verifier, privateKey };
}

/** A new signer key (text) for `name`, and its verifier key. */
export function signerKeyText(name: string, privateKey: KeyObject): { signer: string; verifier: string } {
  if (!isValidKeyName(name)) throw new NoteError('bad-key', `"${name}" is not a valid key name (no spaces, no "+")`);
  const seed = seedOf(privateKey);
  const v = verifierFrom(name, createPublicKey(privateKey));
  return { signer: `PRIVATE+KEY+${keyTag(v)}+${Buffer.concat([Buffer.from([ED25519_TYPE]), seed]).toString('base64')}`, verifier: v.text };
}

function checkText(text: string): void {
  if (!text.endsWith('\n')) throw new NoteError('malformed', 'a note text must end with a newline');
  if (/[\u0000-\u0009\u000b-\u001f]/.test(text)) throw new NoteError('malformed', 'a note text must not hold control characters');
}

/** The signed note: `text`, a blank line, and one signature line per signer (deterministic: Ed25519). */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  checkText(text);
  if (signers.length === 0) throw new NoteError('bad-key', 'a note needs at least one signer');
  const lines = signers.map((s) => {
    const id = Buffer.alloc(4);
    id.writeUInt32BE(s.keyId);
    const signature = sign(null, Buffer.from(text, 'utf8'), s.privateKey);
    return `${SIGNATURE_PREFIX}${s.name} ${Buffer.concat([id, signature]).toString('base64')}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

export interface OpenedNote {
  text: string;
  /** The verifiers whose signatures checked. */
  verifiedBy: NoteVerifier[];
  /** Signature lines by keys we do not know (ignored). */
  unverified: Array<{ name: string; keyId: number }>;
}

/** Opens a signed note as Go's note.Open does; throws NoteError with Go's reason otherwise. */
export function openNote(note: string | Uint8Array, known: readonly NoteVerifier[]): OpenedNote {
  const bytes = typeof note === 'string' ? Buffer.from(note, 'utf8') : Buffer.from(note);
  let msg: string;
  try {
    msg = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new NoteError('malformed', 'malformed note: not UTF-8');
  }
  if (/[\u0000-\u0009\u000b-\u001f]/.test(msg)) throw new NoteError('malformed', 'malformed note: a control character');
  const split = msg.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('malformed', 'malformed note: no blank line before the signatures');
  const text = msg.slice(0, split + 1);
  let sigs = msg.slice(split + 2);
  if (sigs.length === 0 || !sigs.endsWith('\n')) throw new NoteError('malformed', 'malformed note: no signature lines');
  const verifiedBy: NoteVerifier[] = [];
  const unverified: OpenedNote['unverified'] = [];
  const seen = new Set<string>();
  let count = 0;
  while (sigs.length > 0) {
    const end = sigs.indexOf('\n');
    let line = sigs.slice(0, end);
    sigs = sigs.slice(end + 1);
    if (!line.startsWith(SIGNATURE_PREFIX)) throw new NoteError('malformed', 'malformed note: a signature line does not start with "— "');
    line = line.slice(SIGNATURE_PREFIX.length);
    const space = line.indexOf(' ');
    const name = space < 0 ? line : line.slice(0, space);
    const b64 = space < 0 ? '' : line.slice(space + 1);
    const sig = Buffer.from(b64, 'base64');
    if (!isValidKeyName(name) || b64 === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || sig.toString('base64') !== b64 || sig.length < 5) {
      throw new NoteError('malformed', 'malformed note: a signature line is not "— <name> <base64>"');
    }
    if (++count > MAX_SIGNATURES) throw new NoteError('malformed', 'malformed note: too many signatures');
    const keyId = sig.readUInt32BE(0);
    const verifier = known.find((k) => k.name === name && k.keyId === keyId);
    if (!verifier) {
      unverified.push({ name, keyId });
      continue;
    }
    const tag = keyTag({ name, keyId });
    if (seen.has(tag)) continue;
    seen.add(tag);
    if (!verify(null, Buffer.from(text, 'utf8'), verifier.publicKey, sig.subarray(4))) {
      throw new NoteError('invalid-signature', `invalid signature for key ${tag}`);
    }
    verifiedBy.push(verifier);
  }
  if (verifiedBy.length === 0) throw new NoteError('no-verified-signature', 'note has no verifiable signatures');
  return { text, verifiedBy, unverified };
}
