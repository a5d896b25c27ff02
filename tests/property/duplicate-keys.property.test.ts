/** Duplicate-key detection against a reference: the writer records where it wrote each duplicate. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json/strict-parse.ts';
import { rng, writeRandomly } from '../helpers/random-json.ts';
import { referenceDuplicates } from '../helpers/reference-duplicates.ts';

const key = fc.oneof(
  fc.constantFrom('a', 'b', 'a/b', 'm~n', '', '__proto__', 'constructor', 'é', '😀', 'x"y', 'back\\slash', 'line\nbreak'),
  fc.string({ maxLength: 6 }),
);
const tree = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null), tie('object'), tie('array')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  array: fc.array(tie('value'), { maxLength: 4 }),
}));
const rootObject = tree.object;

describe('json/duplicate-key', () => {
  it('reports exactly the injected duplicates, each at its key', () => {
    fc.assert(
      fc.property(rootObject, fc.integer(), fc.constantFrom(0, 0.15, 0.5), (value, seed, chance) => {
        const { text, duplicates } = writeRandomly(value, rng(seed), { shuffleKeys: true, duplicateChance: chance });
        const found = parseStrictJson(text).findings.filter((f) => f.rule === 'json/duplicate-key');
        const got = found.map((f) => ({ pointer: f.pointer, line: f.line, column: f.column }));
        expect(got).toEqual(duplicates);
        // and nothing else is wrong with the text
        expect(parseStrictJson(text).findings.length).toBe(duplicates.length);
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with an independent reference reader on texts with and without duplicates', () => {
    fc.assert(
      fc.property(rootObject, fc.integer(), fc.constantFrom(0, 0.1, 0.3), (value, seed, chance) => {
        const { text } = writeRandomly(value, rng(seed), { shuffleKeys: true, duplicateChance: chance });
        const found = parseStrictJson(text).findings.filter((f) => f.rule === 'json/duplicate-key').map((f) => f.pointer);
        expect(found).toEqual(referenceDuplicates(text));
      }),
      { numRuns: 300 },
    );
  });

  it('the reference itself sees a plain duplicate and an escaped one', () => {
    expect(referenceDuplicates('{"a": {"b": 1, "\\u0062": 2}, "a": [ {"c": 1, "c": 2} ]}')).toEqual(['/a/b', '/a', '/a/0/c']);
  });
});
