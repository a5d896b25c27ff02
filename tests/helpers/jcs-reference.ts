/**
 * An independent, deliberately plain RFC 8785 reference for test data made of JSON values: members sorted by
 * UTF-16 code units (JavaScript's default string order), ECMAScript number and string serialisation (which is
 * what RFC 8785 prescribes). Used to check the project's canonical form and hashes without trusting them.
 */
import { createHash } from 'node:crypto';

export function referenceJcs(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(referenceJcs).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceJcs((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function referenceSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** DECISIONS 14: the hash an ed25519_signature proof covers. */
export function referenceAuthorshipHash(record: Record<string, unknown>): string {
  const { authorship_proof: _p, authorship_claims: _c, ...content } = record;
  return referenceSha256(referenceJcs(content));
}
