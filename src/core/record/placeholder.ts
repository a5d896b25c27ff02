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

/**
 * Every placeholder in a record: [pointer, what it asks for], in document order. Every record of the archive is
 * walked, and almost no string is a placeholder: a pointer is built only for a match.
 */
export function findPlaceholders(value: unknown): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const path: Array<string | number> = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      const asked = v.startsWith('<TODO: ') ? placeholderRequest(v) : undefined;
      if (asked !== undefined) found.push([path.reduce<string>((p, key) => childPointer(p, key), ''), asked]);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => {
        path.push(i);
        walk(item);
        path.pop();
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        path.push(key);
        walk(item);
        path.pop();
      }
    }
  };
  walk(value);
  return found;
}
