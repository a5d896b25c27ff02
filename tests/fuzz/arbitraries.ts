/**
 * Shared pieces of the fuzz tests (tests/fuzz): run counts and seeds from the environment, input arbitraries
 * (bytes, token soup, JSON, mutated valid documents) and the completeness check of a placed diagnostic.
 *
 *   FUZZ_RUNS   runs per property (default: each property's small CI count; `npm run fuzz` sets 20,000)
 *   FUZZ_SEED   replay: the seed fast-check prints on failure (with FUZZ_PATH, its shrink path, to go straight to it)
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { rng, writeRandomly } from '../helpers/random-json.ts';

// ---------------------------------------------------------------------------------------------------------------
// Runs, seeds, timeouts

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, found ${JSON.stringify(raw)}`);
  return n;
}

/** Runs per property: FUZZ_RUNS when set, else the property's CI default. */
export function fuzzRuns(ciDefault: number): number {
  const runs = envInt('FUZZ_RUNS');
  return runs !== undefined && runs > 0 ? runs : ciDefault;
}

/** fast-check parameters: the run count, and FUZZ_SEED / FUZZ_PATH to replay a reported failure. */
export function fuzzParameters<T>(ciDefault: number): fc.Parameters<T> {
  const seed = envInt('FUZZ_SEED');
  const path = process.env.FUZZ_PATH;
  return {
    numRuns: fuzzRuns(ciDefault),
    ...(seed !== undefined ? { seed } : {}),
    ...(path ? { path } : {}),
  };
}

/** A vitest timeout that grows with the run count: `msPerRun` is a generous bound of one run on a slow machine. */
export function fuzzTimeout(ciDefault: number, msPerRun: number): number {
  return 20_000 + fuzzRuns(ciDefault) * msPerRun;
}

// ---------------------------------------------------------------------------------------------------------------
// Raw inputs

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** Arbitrary bytes, and bytes that look a little like JSON (so the parser gets past the first character). */
export const arbitraryBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 600 }),
  fc.array(fc.constantFrom(...utf8('{}[]":,\\ \n0123456789-+.eEtrufalsn')), { maxLength: 300 }).map((b) => Uint8Array.from(b)),
);

/** Pieces of JSON and things that are nearly JSON, strung together at random. */
const TOKENS = [
  '{', '}', '[', ']', ':', ',', ' ', '\n', '\t', '\r\n', '"', '"a"', '"record"', '"schema"', '"record_type"', '"proof"', '""',
  '0', '-0', '1', '1.5', '1e400', '-1e-400', '01', '.5', '+1', 'true', 'false', 'null', 'NaN', 'Infinity', 'undefined',
  '"\\u0000"', '"\\ud800"', '"\\udc00\\ud800"', '"\\x41"', '"\\u00"', "'single'", '/* c */', '// c\n', '\u00a0', '\ufeff',
  '"é"', '"😀"', '"\u2028"', '\\', '"\\"', '{"a":1,"a":2}', '{"__proto__":{}}', '{"constructor":1}', '[[[[[[[[[[[[', ']]]]]]]]]]]]',
];
export const tokenSoup: fc.Arbitrary<Uint8Array> = fc
  .array(fc.constantFrom(...TOKENS), { maxLength: 60 })
  .map((parts) => utf8(parts.join('')));

/** Any JSON value, as compact text or in a random layout. */
export const arbitraryJsonText: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 10 })), fc.integer(), fc.boolean())
  .map(([value, seed, laidOut]) => utf8(laidOut ? writeRandomly(value, rng(seed), { shuffleKeys: true }).text : JSON.stringify(value)));

// ---------------------------------------------------------------------------------------------------------------
// Mutations of a valid document

/** Replacement values: anything JSON, and values that sit near the edges of the schemas. */
export function replacementValue(vocabulary: readonly unknown[] = []): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom<unknown>(
      null, true, false, 0, -1, 1.5, 1e308, -0, '', ' ', 'x', '\u0000', '\ud800', 'é'.normalize('NFD'), 'a'.repeat(5000),
      '2026-02-30T25:61:00Z', 'https://example.org/', 'javascript:alert(1)', 'a'.repeat(64), 'A'.repeat(64), [], {}, [null], { '': null },
      ...vocabulary,
    ),
  );
}

type Path = Array<string | number>;

/** Every member and item of `value` (paths from the top), and every object in it (the insertion points). */
function places(value: unknown): { members: Path[]; objects: Path[] } {
  const members: Path[] = [];
  const objects: Path[] = [];
  const walk = (node: unknown, path: Path): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        members.push([...path, i]);
        walk(item, [...path, i]);
      });
      return;
    }
    objects.push(path);
    for (const [k, v] of Object.entries(node)) {
      members.push([...path, k]);
      walk(v, [...path, k]);
    }
  };
  walk(value, []);
  return { members, objects };
}

function at(root: unknown, path: Path): unknown {
  let node = root as Record<string | number, unknown>;
  for (const step of path) node = node[step] as Record<string | number, unknown>;
  return node;
}

/** A mutation, as data so that fast-check prints and shrinks it. Indices are taken modulo the candidates. */
export type ValueMutation =
  | { op: 'delete'; pick: number }
  | { op: 'replace'; pick: number; value: unknown }
  | { op: 'copy'; pick: number; from: number }
  | { op: 'insert'; pick: number; key: string; value: unknown };

export type TextMutation =
  | { op: 'truncate'; pick: number }
  | { op: 'flip'; pick: number; mask: number }
  | { op: 'splice'; pick: number; bytes: number[] }
  | { op: 'duplicate-key'; pick: number; value: unknown };

export interface Mutation {
  /** Applied to the parsed document, in order. */
  value: ValueMutation[];
  /** The layout the mutated value is written in: compact, two-space, or a random one (this seed). */
  layout: 'compact' | 'two-space' | number;
  /** Applied to the written bytes, in order. */
  text: TextMutation[];
}

/** Member names to insert: the document's own vocabulary (duplicates, unknown-field rules) and others. */
export function mutationArbitrary(keys: readonly string[], vocabulary: readonly unknown[] = []): fc.Arbitrary<Mutation> {
  const pick = fc.nat();
  const value = replacementValue(vocabulary);
  const valueMutation: fc.Arbitrary<ValueMutation> = fc.oneof(
    fc.record({ op: fc.constant('delete' as const), pick }),
    fc.record({ op: fc.constant('replace' as const), pick, value }),
    fc.record({ op: fc.constant('copy' as const), pick, from: fc.nat() }),
    fc.record({ op: fc.constant('insert' as const), pick, key: fc.oneof(fc.constantFrom(...keys, '', '__proto__', 'x-extra'), fc.string({ maxLength: 12 })), value }),
  );
  const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
    fc.record({ op: fc.constant('truncate' as const), pick }),
    fc.record({ op: fc.constant('flip' as const), pick, mask: fc.integer({ min: 1, max: 255 }) }),
    fc.record({
      op: fc.constant('splice' as const),
      pick,
      bytes: fc.oneof(
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom<number[]>([0xef, 0xbb, 0xbf], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x00], [0x2c], [0x7b], [0x5d], [0x22], [0x5c], [0x2f, 0x2a]),
      ),
    }),
    fc.record({ op: fc.constant('duplicate-key' as const), pick, value }),
  );
  return fc
    .record({
      value: fc.array(valueMutation, { maxLength: 3 }),
      layout: fc.oneof(fc.constant('compact' as const), fc.constant('two-space' as const), fc.integer()),
      text: fc.array(textMutation, { maxLength: 2 }),
    })
    .filter((m) => m.value.length + m.text.length > 0);
}

/** The value with the value mutations applied (a deep copy; mutations that no longer find a place are skipped). */
export function mutateValue(document: unknown, mutations: readonly ValueMutation[]): unknown {
  let doc = structuredClone(document);
  for (const m of mutations) {
    const { members, objects } = places(doc);
    if (m.op === 'insert') {
      if (objects.length === 0) continue;
      (at(doc, objects[m.pick % objects.length]!) as Record<string, unknown>)[m.key] = structuredClone(m.value);
      continue;
    }
    if (members.length === 0) {
      if (m.op === 'replace') doc = structuredClone(m.value);
      continue;
    }
    const path = members[m.pick % members.length]!;
    const parent = at(doc, path.slice(0, -1)) as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (m.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
    } else if (m.op === 'replace') {
      parent[last] = structuredClone(m.value);
    } else {
      parent[last] = structuredClone(at(doc, members[m.from % members.length]!));
    }
  }
  return doc;
}

/** Where member names start in JSON-ish text: a quote after `{` or `,`, up to the colon after the closing quote. */
const KEY = /[{,]\s*("(?:[^"\\]|\\.)*"\s*:)/g;

/** The bytes with the text mutations applied. Duplicate keys are written before an existing member of the same object. */
export function mutateBytes(bytes: Uint8Array, mutations: readonly TextMutation[]): Uint8Array {
  let out = Buffer.from(bytes);
  for (const m of mutations) {
    if (m.op === 'truncate') {
      out = out.subarray(0, m.pick % (out.length + 1));
    } else if (m.op === 'flip') {
      if (out.length === 0) continue;
      out = Buffer.from(out);
      const i = m.pick % out.length;
      out[i] = out[i]! ^ m.mask;
    } else if (m.op === 'splice') {
      const i = m.pick % (out.length + 1);
      out = Buffer.concat([out.subarray(0, i), Buffer.from(m.bytes), out.subarray(i)]);
    } else {
      // latin1 keeps one character per byte, so match offsets are byte offsets whatever the encoding
      const text = out.toString('latin1');
      const starts = [...text.matchAll(KEY)].map((match) => ({ index: match.index + match[0].length - match[1]!.length, key: match[1]! }));
      if (starts.length === 0) continue;
      const { index, key } = starts[m.pick % starts.length]!;
      const copy = Buffer.concat([Buffer.from(key, 'latin1'), Buffer.from(` ${JSON.stringify(m.value)}, `)]);
      out = Buffer.concat([out.subarray(0, index), copy, out.subarray(index)]);
    }
  }
  return new Uint8Array(out);
}

/** Serialises a value as the mutation's layout says. */
export function layOut(value: unknown, layout: Mutation['layout']): Uint8Array {
  if (layout === 'compact') return utf8(JSON.stringify(value));
  if (layout === 'two-space') return utf8(JSON.stringify(value, null, 2) + '\n');
  return utf8(writeRandomly(value, rng(layout), { shuffleKeys: true }).text);
}

/** The document with a whole mutation applied, as bytes. */
export function mutate(document: unknown, mutation: Mutation): Uint8Array {
  return mutateBytes(layOut(mutateValue(document, mutation.value), mutation.layout), mutation.text);
}

/** Every member name in a document (vocabulary for insertions). */
export function keysOf(document: unknown): string[] {
  const keys = new Set<string>();
  for (const path of places(document).members) {
    const last = path[path.length - 1];
    if (typeof last === 'string') keys.add(last);
  }
  return [...keys];
}

/** Every string value in a document (vocabulary for replacements: enum values, constants). */
export function stringsOf(document: unknown): string[] {
  const out = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node === 'string') out.add(node);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(document);
  return [...out].filter((s) => s.length <= 200);
}

// ---------------------------------------------------------------------------------------------------------------
// Checks

export interface PlacedDiagnostic {
  severity: string;
  rule: string;
  message: string;
  pointer: string;
  line: number;
  column: number;
  hint?: string;
}

/** A diagnostic a reader can act on: severity, a rule id, words, a pointer, and a line/column within `text`. */
export function expectComplete(d: PlacedDiagnostic, text?: string): void {
  expect(['error', 'warning']).toContain(d.severity);
  expect(d.rule).toMatch(/^(json|schema|cross|state|file|chain|receipt)\/[a-z0-9-]+$/);
  expect(typeof d.message === 'string' && d.message.trim().length > 0).toBe(true);
  expect(d.message).not.toMatch(/\[object Object\]/);
  if (d.hint !== undefined) expect(typeof d.hint === 'string' && d.hint.trim().length > 0).toBe(true);
  expect(typeof d.pointer).toBe('string');
  expect(d.pointer === '' || d.pointer.startsWith('/')).toBe(true);
  expect(Number.isInteger(d.line) && d.line >= 1).toBe(true);
  expect(Number.isInteger(d.column) && d.column >= 1).toBe(true);
  if (text !== undefined) expect(d.line).toBeLessThanOrEqual(text.split('\n').length);
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What plain JSON.parse makes of strict UTF-8 bytes, or undefined (not UTF-8, a BOM, or a syntax error). */
export function plainParse(bytes: Uint8Array): { value: unknown } | undefined {
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
  if (text.startsWith('\ufeff')) return undefined;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
