import * as crypto from 'node:crypto';
import { canonicalJson } from '../canonical/jcs.ts';

/** Lowercase hex SHA-256 of bytes or of a string's UTF-8 encoding, through a Hash object (every Node). */
export function sha256HexOfHash(data: Uint8Array | string): string {
  return crypto.createHash('sha256').update(data).digest('hex');
}

// Node's one-shot hash (Node 20.12 and 21.7 on; read from the namespace, which an older Node lacks without failing to
// load): no Hash object for each input, about a fifth faster on the short inputs the build hashes by the hundred
// thousand (page keys, summaries, entries).
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array | string, encoding: 'hex') => string }).hash;

/** Lowercase hex SHA-256 of bytes or of a string's UTF-8 encoding. */
export const sha256Hex: (data: Uint8Array | string) => string = oneShot ? (data) => oneShot('sha256', data, 'hex') : sha256HexOfHash;

/** Lowercase hex SHA-256 of a value's RFC 8785 canonical form. */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/** Thrown by sha256OfStream when the bytes pass the cap; nothing more is read. */
export class TooManyBytesError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/**
 * Lowercase hex SHA-256 of a stream of chunks, hashed as they arrive (an artifact is never held in memory whole),
 * and how many bytes there were. With `maxBytes`, stops with TooManyBytesError as soon as the count passes it.
 */
export async function sha256OfStream(chunks: AsyncIterable<Uint8Array>, maxBytes = Infinity): Promise<{ sha256: string; bytes: number }> {
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw new TooManyBytesError(maxBytes);
    hash.update(chunk);
  }
  return { sha256: hash.digest('hex'), bytes };
}
