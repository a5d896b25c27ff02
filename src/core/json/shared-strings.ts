/**
 * One instance of each repeated short string in parsed JSON. `JSON.parse` makes a new string for every value, so
 * 100,000 parsed records hold 100,000 copies of "none", of each schema id and of every other vocabulary value; a
 * program that keeps many parsed values (the site build keeps every record) shares them through this instead.
 * (Hand-written: a dozen lines over a Map; V8 offers no interning call.)
 */

/** Strings longer than this are left alone: free text rarely repeats, and looking it up would cost more than it saves. */
const MAX_SHARED_LENGTH = 64;

export type StringSharer = <T>(value: T) => T;

/**
 * A function that replaces, in place, every short string of a parsed JSON value (object members and array items, at
 * any depth) with the first equal string it has seen, and returns the value.
 */
export function stringSharer(): StringSharer {
  const seen = new Map<string, string>();
  const share = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (value.length > MAX_SHARED_LENGTH) return value;
      const first = seen.get(value);
      if (first !== undefined) return first;
      seen.set(value, value);
      return value;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = share(value[i]);
    } else if (value !== null && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      // for…in rather than Object.keys: no array of keys made for each object (a parsed JSON object inherits no
      // enumerable member), a fifth less time over 100,000 records.
      for (const key in object) object[key] = share(object[key]);
    }
    return value;
  };
  return share as StringSharer;
}
