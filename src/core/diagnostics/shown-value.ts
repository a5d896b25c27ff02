import { describeJsonType } from '../json/strict-parse.ts';

/**
 * A value from a record as a diagnostic quotes it: a string in JSON quotes (cut at 80 characters), a number, boolean
 * or null as written, and an object or array by its kind ("an object"), never as `[object Object]` or a whole subtree.
 */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? value.slice(0, 77) + '…' : value);
  if (value === null || typeof value !== 'object') return String(value);
  return describeJsonType(value);
}
