/**
 * RFC 8785 JSON Canonicalization Scheme, via `canonicalize` (the reference implementation by one of the RFC's
 * authors). Every hash and signature in the project is taken over this form: one place, one definition.
 */
import canonicalizeImpl from 'canonicalize';
import { childPointer } from '../json/pointer.ts';

export function canonicalJson(value: unknown): string {
  const out = canonicalizeImpl(value);
  if (out === undefined) throw new TypeError('value cannot be represented as JSON');
  return out;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * RFC 8785 canonicalises I-JSON only: a string or member name holding an unpaired UTF-16 surrogate (which strict
 * JSON can still carry as a `\uD800`-style escape) has no canonical form, and canonicalJson throws on it. Checks
 * that hash parsed input call this first and report the place instead: the first such string, or undefined.
 */
export function unpairedSurrogateAt(value: unknown, pointer = ''): { pointer: string; at: 'key' | 'value' } | undefined {
  if (typeof value === 'string') return UNPAIRED_SURROGATE.test(value) ? { pointer, at: 'value' } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    const here = childPointer(pointer, key);
    if (typeof key === 'string' && UNPAIRED_SURROGATE.test(key)) return { pointer: here, at: 'key' };
    const found = unpairedSurrogateAt(child, here);
    if (found) return found;
  }
  return undefined;
}

/** What to say about the place unpairedSurrogateAt found (`pointer` as the finding reports it). */
export function unpairedSurrogateWords(pointer: string, at: 'key' | 'value'): { message: string; hint: string } {
  return {
    message: `the ${at === 'key' ? 'member name' : 'text'} at ${pointer} contains an unpaired UTF-16 surrogate (a \\uD800–\\uDFFF escape without its other half): the record has no RFC 8785 canonical form, so it cannot be hashed or signed`,
    hint: 'Write the character itself, or both halves of its surrogate pair (such as \\uD83D\\uDE00), or remove the escape.',
  };
}
