import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical/jcs.ts';

/** Lowercase hex SHA-256 of bytes or of a string's UTF-8 encoding. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Lowercase hex SHA-256 of a value's RFC 8785 canonical form. */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
