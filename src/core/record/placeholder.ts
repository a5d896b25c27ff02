/**
 * Placeholders: the values `npm run new` writes where only the contributor can answer. A placeholder is a string
 * `<TODO: what to write>`; the validator reports each one (rule draft/placeholder) with that text as the fix, and
 * holds back the schema's complaints about the same place, which would only say less.
 */
import { childPointer } from '../json/pointer.ts';

const PLACEHOLDER = /^<TODO: ([^<>]*)>$/;

export function placeholder(what: string): string {
  return `<TODO: ${what.replaceAll(/[<>]/g, '')}>`;
}

/** What the placeholder asks for, or undefined when `value` is not a placeholder. */
export function placeholderRequest(value: unknown): string | undefined {
  return typeof value === 'string' ? PLACEHOLDER.exec(value)?.[1] : undefined;
}

/** Every placeholder in a record: [pointer, what it asks for], in document order. */
export function findPlaceholders(value: unknown, pointer = ''): Array<[string, string]> {
  const asked = placeholderRequest(value);
  if (asked !== undefined) return [[pointer, asked]];
  if (Array.isArray(value)) return value.flatMap((v, i) => findPlaceholders(v, childPointer(pointer, i)));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => findPlaceholders(v, childPointer(pointer, k)));
  }
  return [];
}
