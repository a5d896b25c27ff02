/** Visits the strings of a JSON value (member names and string values) with their JSON pointers. */
import { childPointer } from '../json/pointer.ts';

export type StringVisitor = (text: string, pointer: string, isKey: boolean) => void;

export function forEachString(value: unknown, pointer: string, visit: StringVisitor): void {
  if (typeof value === 'string') {
    visit(value, pointer, false);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => forEachString(item, childPointer(pointer, i), visit));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = childPointer(pointer, key);
      visit(key, at, true);
      forEachString(item, at, visit);
    }
  }
}

/** Unicode code points of a string (what the limits count). */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
