/**
 * RFC 8785 JSON Canonicalization Scheme, via `canonicalize` (the reference implementation by one of the RFC's
 * authors). Every hash and signature in the project is taken over this form: one place, one definition.
 */
import canonicalizeImpl from 'canonicalize';

export function canonicalJson(value: unknown): string {
  const out = canonicalizeImpl(value);
  if (out === undefined) throw new TypeError('value cannot be represented as JSON');
  return out;
}
