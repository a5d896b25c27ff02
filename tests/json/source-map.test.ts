import { describe, expect, it } from 'vitest';
import { buildSourceMap } from '../../src/core/json/source-map.ts';
import { parseStrictJson } from '../../src/core/json/strict-parse.ts';

// Positions counted by hand:            line:col
const TEXT = [
  '{', //                                  1
  '  "name": "x",', //                     2: key 3, value 11
  '  "nested": {', //                      3: key 3, value 13
  '    "a/b": 1,', //                      4: key 5, value 12
  '    "m~n": [', //                       5: key 5, value 12
  '      true,', //                        6: item 0 at 7
  '      { "deep": null }', //             7: item 1 at 7, key "deep" 9, value 17
  '    ]', //
  '  },', //
  '  "list": [10, 20]', //                10: key 3, value 11, items at 12 and 16
  '}',
].join('\n');

describe('buildSourceMap', () => {
  const map = buildSourceMap(TEXT);

  it('the empty pointer is the top-level value', () => {
    expect(map.locate('')).toEqual({ line: 1, column: 1 });
  });

  it('a member: value by default, key on request', () => {
    expect(map.locate('/name')).toEqual({ line: 2, column: 11 });
    expect(map.locate('/name', 'value')).toEqual({ line: 2, column: 11 });
    expect(map.locate('/name', 'key')).toEqual({ line: 2, column: 3 });
    expect(map.locate('/nested')).toEqual({ line: 3, column: 13 });
    expect(map.locate('/nested', 'key')).toEqual({ line: 3, column: 3 });
  });

  it('escaped tokens: ~1 is "/" and ~0 is "~"', () => {
    expect(map.locate('/nested/a~1b')).toEqual({ line: 4, column: 12 });
    expect(map.locate('/nested/a~1b', 'key')).toEqual({ line: 4, column: 5 });
    expect(map.locate('/nested/m~0n', 'key')).toEqual({ line: 5, column: 5 });
    // the unescaped spelling is not the same pointer: it falls back to the parent
    expect(map.locate('/nested/a/b')).toEqual({ line: 3, column: 13 });
  });

  it('array items by index, with no key position', () => {
    expect(map.locate('/nested/m~0n/0')).toEqual({ line: 6, column: 7 });
    expect(map.locate('/nested/m~0n/1')).toEqual({ line: 7, column: 7 });
    expect(map.locate('/nested/m~0n/1', 'key')).toEqual({ line: 7, column: 7 });
    expect(map.locate('/nested/m~0n/1/deep')).toEqual({ line: 7, column: 17 });
    expect(map.locate('/nested/m~0n/1/deep', 'key')).toEqual({ line: 7, column: 9 });
    expect(map.locate('/list/0')).toEqual({ line: 10, column: 12 });
    expect(map.locate('/list/1')).toEqual({ line: 10, column: 16 });
  });

  it('a missing member falls back to the nearest existing ancestor (its value)', () => {
    expect(map.locate('/nested/missing')).toEqual({ line: 3, column: 13 });
    expect(map.locate('/nested/missing/deeper/still', 'key')).toEqual({ line: 3, column: 13 });
    expect(map.locate('/list/7')).toEqual({ line: 10, column: 11 });
    expect(map.locate('/nope')).toEqual({ line: 1, column: 1 });
  });

  it('a duplicated key keeps the place of its first occurrence', () => {
    const m = buildSourceMap('{\n  "a": 1,\n  "a": 2\n}');
    expect(m.locate('/a', 'key')).toEqual({ line: 2, column: 3 });
  });

  it('unparseable text maps every pointer to the start of the file', () => {
    const m = buildSourceMap('{"a": ');
    expect(m.locate('/a')).toEqual({ line: 1, column: 1 });
    expect(m.locate('')).toEqual({ line: 1, column: 1 });
  });

  it('counts CRLF line ends as one line, like the strict parser does', () => {
    const text = '{\r\n  "a": 1,\r\n  "b": {"c": 2},\r\n  "b": 3\r\n}';
    const m = buildSourceMap(text);
    expect(m.locate('/b/c', 'key')).toEqual({ line: 3, column: 9 });
    const dup = parseStrictJson(text).findings[0]!;
    expect(dup).toMatchObject({ rule: 'json/duplicate-key', line: 4, column: 3 });
  });

  it('columns count UTF-16 code units, like the strict parser', () => {
    const m = buildSourceMap('{"e": "😀", "f": 1}');
    // {"e": "😀", "f": 1}: the emoji takes columns 8-9, so "f" is at 13 and its value at 18
    expect(m.locate('/f', 'key')).toEqual({ line: 1, column: 13 });
    expect(m.locate('/f')).toEqual({ line: 1, column: 18 });
  });
});
