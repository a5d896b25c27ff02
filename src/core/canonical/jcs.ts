/**
 * RFC 8785 JSON Canonicalization Scheme. Every hash and signature in the project is taken over this form: one
 * place, one definition. Hand-written rather than the `canonicalize` package (the reference implementation by one of
 * the RFC's authors), which it equals on every JSON value (tests/canonical/jcs.test.ts checks both): that package
 * tests each character in JavaScript and tracks cycles a parsed JSON value cannot have, and was more than twice as
 * slow as this pass, which leaves numbers and string escaping to JSON.stringify (ECMAScript serialisation, what RFC
 * 8785 prescribes) and the surrogate check to String.prototype.isWellFormed.
 */
import { childPointer } from '../json/pointer.ts';

type WellFormed = string & { isWellFormed(): boolean };

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      // RFC 8785 canonicalises I-JSON only: a lone surrogate has no canonical form.
      if (!(value as WellFormed).isWellFormed()) throw new TypeError('Lone surrogate is not allowed');
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not allowed`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      break;
    default:
      return JSON.stringify(value); // undefined, functions and symbols have no JSON form (undefined); BigInt throws
  }
  const object = value as Record<string, unknown> & { toJSON?: () => unknown };
  if (typeof object.toJSON === 'function') return write(object.toJSON());
  if (Array.isArray(object)) {
    let out = '[';
    for (let i = 0; i < object.length; i++) {
      const item = object[i];
      out += (i === 0 ? '' : ',') + (item === undefined || typeof item === 'symbol' || typeof item === 'function' ? 'null' : write(item));
    }
    return out + ']';
  }
  let out = '{';
  let first = true;
  // Default sort: UTF-16 code units, as RFC 8785 section 3.2.3 requires.
  for (const key of Object.keys(object).sort()) {
    const member = object[key];
    if (member === undefined || typeof member === 'symbol' || typeof member === 'function') continue;
    out += (first ? '' : ',') + write(key) + ':' + write(member);
    first = false;
  }
  return out + '}';
}

export function canonicalJson(value: unknown): string {
  const out = write(value);
  if (out === undefined) throw new TypeError('value cannot be represented as JSON');
  return out;
}

/** Whether two values have the same RFC 8785 form; a value without one (an unpaired surrogate) is equal to nothing. */
export function sameCanonical(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
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
