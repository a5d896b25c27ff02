/**
 * Strict JSON reading (DECISIONS 2). Positions are 1-based line and column in UTF-16 code units (what editors show);
 * every expected position below is counted by hand from the input written next to it.
 */
import { describe, expect, it } from 'vitest';
import { describeJsonType, lineColumnAt, parseStrictJson } from '../../src/core/json/strict-parse.ts';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'utf8')] : p)));

function only(input: string | Uint8Array) {
  const r = parseStrictJson(input);
  expect(r.findings).toHaveLength(1);
  return { result: r, finding: r.findings[0]! };
}

describe('parseStrictJson: valid input', () => {
  it('returns the object and no findings', () => {
    const r = parseStrictJson('{\n  "a": [1, {"b": null}],\n  "c": "x:y"\n}\n');
    expect(r).toMatchObject({ isObject: true, findings: [], value: { a: [1, { b: null }], c: 'x:y' } });
  });

  it('reads bytes as UTF-8 and keeps the text as decoded', () => {
    const r = parseStrictJson(bytes('{"name": "Zoë ✓ 😀"}'));
    expect(r.findings).toEqual([]);
    expect(r.value).toEqual({ name: 'Zoë ✓ 😀' });
    expect(r.text).toBe('{"name": "Zoë ✓ 😀"}');
  });

  it('does not mistake equal keys in different objects, or colons inside strings, for duplicates', () => {
    expect(parseStrictJson('{"x": {"a": 1}, "y": {"a": 2}, "a": [{"a": 3}]}').findings).toEqual([]);
    expect(parseStrictJson('{"a:b": "c:d", "e": "\\"f\\": 1"}').findings).toEqual([]);
  });
});

describe('parseStrictJson: duplicate keys', () => {
  it('at the top level, at the second key', () => {
    // line 4 is `  "a": 3`: the key's quote is column 3
    const { result, finding } = only('{\n  "a": 1,\n  "b": 2,\n  "a": 3\n}');
    expect(finding).toMatchObject({ rule: 'json/duplicate-key', severity: 'error', pointer: '/a', line: 4, column: 3 });
    expect(finding.message).toBe('the field "a" appears twice in the top level (first on line 2); JSON readers would silently keep only one');
    expect(finding.hint).toBe('Keep one "a" and delete or merge the other.');
    // still an object: the rest of the pipeline can look at it
    expect(result.isObject).toBe(true);
  });

  it('nested in an object', () => {
    // line 4 is `      "k": 2`: column 7
    const { finding } = only('{\n  "x": {\n    "k": 1,\n      "k": 2\n  }\n}');
    expect(finding).toMatchObject({ rule: 'json/duplicate-key', pointer: '/x/k', line: 4, column: 7 });
    expect(finding.message).toContain('appears twice in /x (first on line 3)');
  });

  it('nested in an object inside an array', () => {
    // {"arr": [{"q": 1}, {"q": 1, "q": 2}]} — the second "q" of item 1 starts at column 29
    const { finding } = only('{"arr": [{"q": 1}, {"q": 1, "q": 2}]}');
    expect(finding).toMatchObject({ pointer: '/arr/1/q', line: 1, column: 29 });
    expect(finding.message).toContain('in /arr/1 ');
  });

  it('three times: every repetition is reported', () => {
    const r = parseStrictJson('{"a":1,"a":2,"a":3}');
    expect(r.findings.map((f) => [f.rule, f.column])).toEqual([
      ['json/duplicate-key', 8],
      ['json/duplicate-key', 14],
    ]);
  });

  it('written differently but equal after unescaping ("a" and "\\u0061")', () => {
    const { finding } = only('{"a": 1, "\\u0061": 2}');
    expect(finding).toMatchObject({ rule: 'json/duplicate-key', pointer: '/a', column: 10 });
  });

  it('__proto__ twice', () => {
    expect(only('{"__proto__": 1, "__proto__": 2}').finding).toMatchObject({ rule: 'json/duplicate-key', pointer: '/__proto__', column: 18 });
  });

  it('counts columns in UTF-16 code units after astral characters', () => {
    // {"k": "😀😀", "k": 2}: each emoji is two code units, so the second "k" starts at column 15
    expect(only('{"k": "😀😀", "k": 2}').finding.column).toBe(15);
    // an emoji key: {"😀": 1, "😀": 2} → column 11
    expect(only('{"😀": 1, "😀": 2}').finding).toMatchObject({ pointer: '/😀', column: 11 });
  });

  it('escapes the pointer of a key holding / or ~', () => {
    expect(only('{"a/b~c": 1, "a/b~c": 2}').finding.pointer).toBe('/a~1b~0c');
  });
});

describe('parseStrictJson: byte-order mark', () => {
  it.each([
    ['text', '\uFEFF{"a": 1}'],
    ['bytes', bytes([0xef, 0xbb, 0xbf], '{"a": 1}')],
  ])('is an error at 1:1 (%s), and the object is still read', (_kind, input) => {
    const { result, finding } = only(input);
    expect(finding).toMatchObject({ rule: 'json/bom', severity: 'error', pointer: '', line: 1, column: 1 });
    expect(finding.message).toMatch(/byte-order mark/);
    expect(finding.hint).toMatch(/UTF-8 without BOM/);
    expect(result).toMatchObject({ isObject: true, value: { a: 1 } });
  });

  it('does not hide other problems', () => {
    const r = parseStrictJson('\uFEFF{"a":1,\n"a":2}');
    expect(r.findings.map((f) => [f.rule, f.line])).toEqual([
      ['json/bom', 1],
      ['json/duplicate-key', 2],
    ]);
  });
});

describe('parseStrictJson: syntax errors', () => {
  const cases: Array<[string, string, number, number, RegExp, RegExp?]> = [
    // [what, input, line, column, message, hint]
    ['NaN', '{\n  "n": NaN\n}', 2, 8, /^NaN is not a JSON number$/, /finite number, or null/],
    ['Infinity', '{"n": Infinity}', 1, 7, /^Infinity is not a JSON number$/],
    ['a trailing comma in an object', '{\n  "a": 1,\n}', 3, 1, /^trailing comma before the closing bracket$/, /Delete the comma/],
    ['a trailing comma in an array', '{"a": [1, 2, ]}', 1, 14, /^trailing comma/],
    ['a line comment', '{\n  // note\n  "a": 1\n}', 2, 3, /^comments are not allowed in JSON$/],
    ['a block comment', '{ /* c */ "a": 1}', 1, 3, /^comments are not allowed/],
    ['a single-quoted key', "{\n  'a': 1\n}", 2, 3, /^single quotes are not allowed in JSON$/, /double quotes/],
    ['a single-quoted value', "{\"a\": 'x'}", 1, 7, /^single quotes/],
    ['trailing garbage after the object', '{"a": 1} xyz', 1, 10, /^unexpected text after the end of the JSON object$/, /delete what follows/],
    ['a second closing brace', '{"a": 1}\n}', 2, 1, /^unexpected text after the end/],
    ['two objects', '{"a": 1}{"b": 2}', 1, 9, /^unexpected text after the end/],
    ['a missing comma between members', '{\n  "a": 1\n  "b": 2\n}', 3, 3, /^a comma is missing before this point$/, /Separate fields/],
    ['a missing comma between items', '{"a": [1 2]}', 1, 10, /^a comma is missing/],
    ['a missing colon', '{"a" 1}', 1, 6, /^a colon is missing after the field name$/],
    ['an unquoted key', '{a: 1}', 1, 2, /^a field name is not in double quotes$/],
    ['a raw tab inside a string', '{"a": "x\ty"}', 1, 9, /^control character U\+0009 inside a string$/, /\\t/],
    ['unterminated input', '{\n  "a": 1', 2, 9, /^the file ends before the JSON value is complete$/, /missing closing \} or \]/],
    ['an unterminated string', '{"a": "abc', 1, 11, /^the file ends before/],
    ['an unterminated array', '{"a": [1,', 1, 10, /^the file ends before/],
  ];

  it.each(cases)('%s', (_what, input, line, column, message, hint) => {
    const { result, finding } = only(input);
    expect(finding).toMatchObject({ rule: 'json/syntax', severity: 'error', pointer: '', line, column });
    expect(finding.message).toMatch(message);
    if (hint) expect(finding.hint).toMatch(hint);
    expect(result).toMatchObject({ isObject: false, value: undefined });
  });

  it('-Infinity is named and placed on its line', () => {
    const { finding } = only('{"n": -Infinity}');
    expect(finding.rule).toBe('json/syntax');
    expect(finding.message).toMatch(/Infinity is not a JSON number$/);
    expect([7, 8]).toContain(finding.column); // the sign or the word
  });

  it.each([
    ['an empty string', ''],
    ['no bytes', new Uint8Array(0)],
  ])('an empty file (%s) is an error at 1:1', (_what, input) => {
    const { finding } = only(input);
    expect(finding).toMatchObject({ rule: 'json/syntax', line: 1, column: 1, message: 'the file is empty' });
  });

  it('a whitespace-only file is empty too', () => {
    expect(only(' \n\t\n').finding).toMatchObject({ rule: 'json/syntax', message: 'the file is empty' });
  });

  it('never passes raw parser wording like "in JSON at position"', () => {
    for (const [, input] of cases) {
      const { finding } = only(input);
      expect(finding.message).not.toMatch(/position|is not valid JSON|Unexpected token/);
    }
  });
});

describe('parseStrictJson: top level not an object', () => {
  it.each([
    ['[1, 2]', 'an array', 1, 1],
    ['"hello"', 'a string', 1, 1],
    ['null', 'null', 1, 1],
    ['  42', 'an integer', 1, 3],
    ['4.5', 'a number', 1, 1],
    ['\n\ntrue', 'a boolean (true)', 3, 1],
  ])('%j holds %s', (input, what, line, column) => {
    const { result, finding } = only(input);
    expect(finding).toMatchObject({ rule: 'json/not-object', severity: 'error', pointer: '', line, column });
    expect(finding.message).toBe(`the file holds ${what} where a record object { … } is expected`);
    expect(finding.hint).toMatch(/start it with \{ and end it with \}/);
    expect(result.isObject).toBe(false);
  });

  it('an array holding duplicate keys reports both problems', () => {
    const r = parseStrictJson('[{"a": 1, "a": 2}]');
    expect(r.findings.map((f) => [f.rule, f.pointer, f.column])).toEqual([
      ['json/not-object', '', 1],
      ['json/duplicate-key', '/0/a', 11],
    ]);
  });
});

describe('parseStrictJson: invalid UTF-8', () => {
  it('points at the first bad byte (line 2, column 9), and still reads the object', () => {
    // line 2 is `  "a": "` followed by the bytes FF FE
    const r = parseStrictJson(bytes('{\n  "a": "', [0xff, 0xfe], '"\n}'));
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]).toMatchObject({ rule: 'json/encoding', severity: 'error', pointer: '', line: 2, column: 9 });
    expect(r.findings[0]!.message).toBe('the file is not valid UTF-8');
    expect(r.findings[0]!.hint).toMatch(/Latin-1 or UTF-16/);
    expect(r.isObject).toBe(true);
  });

  it('Latin-1 text', () => {
    const r = parseStrictJson(bytes('{"name": "Zo', [0xeb], '"}'));
    expect(r.findings.map((f) => [f.rule, f.line, f.column])).toEqual([['json/encoding', 1, 13]]);
  });

  it('a truncated multi-byte sequence at the end also breaks the syntax', () => {
    const r = parseStrictJson(bytes('{"a": "x', [0xe2, 0x82]));
    expect(r.findings.map((f) => f.rule)).toEqual(['json/encoding', 'json/syntax']);
    expect(r.findings[0]).toMatchObject({ line: 1, column: 9 });
  });

  it('UTF-16 text is not UTF-8', () => {
    const r = parseStrictJson(new Uint8Array(Buffer.from('\uFEFF{"a": 1}', 'utf16le')));
    expect(r.findings.map((f) => f.rule)).toContain('json/encoding');
    expect(r.isObject).toBe(false);
  });
});

describe('helpers', () => {
  it('lineColumnAt counts lines from \\n and columns from 1', () => {
    const text = 'ab\ncd\n\nef';
    expect(lineColumnAt(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt(text, 2)).toEqual({ line: 1, column: 3 });
    expect(lineColumnAt(text, 3)).toEqual({ line: 2, column: 1 });
    expect(lineColumnAt(text, 7)).toEqual({ line: 4, column: 1 });
    expect(lineColumnAt(text, 9)).toEqual({ line: 4, column: 3 });
  });

  it('describeJsonType names values in words', () => {
    expect([null, [], 'x', 1, 1.5, false, {}].map(describeJsonType)).toEqual([
      'null',
      'an array',
      'a string',
      'an integer',
      'a number',
      'a boolean (false)',
      'an object',
    ]);
  });
});
