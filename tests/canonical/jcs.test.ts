/** RFC 8785 (JCS) canonical form: vectors from the RFC and the rules it states. */
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical/jcs.ts';
import { referenceJcs } from '../helpers/jcs-reference.ts';

describe('canonicalJson (RFC 8785)', () => {
  it('the RFC 8785 section 3.2.2 example', () => {
    const input = JSON.parse(
      '{\n  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n  "literals": [null, true, false]\n}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units (RFC 8785 section 3.2.3), emoji before U+FB33', () => {
    // by code point the emoji (U+1F600) would sort after U+FB33; by UTF-16 code units (D83D) it sorts before
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control", "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    );
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\u{1F600}":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('sorts nested objects, keeps array order, writes no whitespace', () => {
    expect(canonicalJson({ b: [3, 1, { z: 1, a: 2 }], a: { d: null, c: true } })).toBe('{"a":{"c":true,"d":null},"b":[3,1,{"a":2,"z":1}]}');
    expect(canonicalJson({ aa: 1, a: 2, B: 3, _: 4 })).toBe('{"B":3,"_":4,"a":2,"aa":1}');
  });

  it.each([
    [1e21, '1e+21'],
    [1e20, '100000000000000000000'],
    [0.000001, '0.000001'],
    [1e-7, '1e-7'],
    [-0, '0'],
    [4.5, '4.5'],
    [-1.5e-10, '-1.5e-10'],
    [9007199254740991, '9007199254740991'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [5e-324, '5e-324'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('serialises the number %s as %s', (n, text) => {
    expect(canonicalJson([n])).toBe(`[${text}]`);
  });

  it('does not escape non-ASCII text, only what JSON requires', () => {
    expect(canonicalJson({ s: 'Zoë € 😀 \u2028' })).toBe('{"s":"Zoë € 😀 \u2028"}');
    expect(canonicalJson('tab\there "q" back\\slash \u0001')).toBe('"tab\\there \\"q\\" back\\\\slash \\u0001"');
    expect(canonicalJson('/')).toBe('"/"');
  });

  it('refuses values JSON cannot represent', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow();
    expect(() => canonicalJson(Number.POSITIVE_INFINITY)).toThrow();
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('agrees with the plain reference on a record-like value', () => {
    const value = { z: [1, 2.5, 'x', { y: null, b: false }], é: 'e', E: 'E', '😀': { '': 0 }, a: { c: { b: 'deep' } } };
    expect(canonicalJson(value)).toBe(referenceJcs(value));
  });

  it('equals the canonicalize package (the RFC authors\' reference implementation) on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a lone surrogate, in a value or a member name, as canonicalize does', () => {
    for (const value of ['\uD800', { '\uDC00': 1 }, ['ok', 'x\uD83D']]) {
      expect(() => canonicalJson(value)).toThrow(TypeError);
      expect(() => canonicalize(value)).toThrow();
    }
    expect(canonicalJson('\uD83D\uDE00')).toBe(canonicalize('\uD83D\uDE00'));
  });
});
