/** YAML front matter read as data: each hazard is refused or kept as the text written, with its place. */
import { describe, expect, it } from 'vitest';
import { parseYamlData, stringifyYamlData } from '../../src/core/draft/safe-yaml.ts';

/** Front matter as splitDraft hands it over: starting with the newline of the opening `---` line. */
const fm = (lines: string) => `\n${lines}`;

function read(text: string) {
  const r = parseYamlData(fm(text));
  return { ...r, rules: r.findings.map((f) => f.rule) };
}

describe('safe YAML: values stay what was written', () => {
  it('reads plain fields as JSON values', () => {
    expect(read('a: text\nb: 12\nc: true\nd: null\ne: [1, two]\nf:\n  g: 1.5\n').value).toEqual({ a: 'text', b: 12, c: true, d: null, e: [1, 'two'], f: { g: 1.5 } });
  });

  it('keeps dates as the strings written (YAML 1.2 core has no timestamps)', () => {
    const r = read('date: 2026-01-14\nwhen: 2026-01-14T10:00:00Z\n');
    expect(r.findings).toEqual([]);
    expect(r.value).toEqual({ date: '2026-01-14', when: '2026-01-14T10:00:00Z' });
  });

  it.each(['yes', 'no', 'on', 'off', 'y', 'n', 'Yes', 'NO'])('keeps %s as a string, not a boolean (YAML 1.1 would not)', (word) => {
    const r = read(`flag: ${word}\n`);
    expect(r.findings).toEqual([]);
    expect(r.value).toEqual({ flag: word });
  });

  it('reads true and false as booleans', () => {
    expect(read('a: true\nb: false\n').value).toEqual({ a: true, b: false });
  });

  it('treats << as an ordinary key (no merge keys)', () => {
    const r = read('<<: {a: 1}\n');
    expect(r.findings).toEqual([]);
    expect(r.value).toEqual({ '<<': { a: 1 } });
  });
});

describe('safe YAML: hazards are refused, at their line', () => {
  it('refuses aliases and anchors (no expansion blow-up)', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]'].join('\n');
    const r = read(bomb + '\n');
    expect(r.value).toBeUndefined();
    expect(r.rules.every((x) => x === 'draft/alias')).toBe(true);
    expect(r.findings[0]).toMatchObject({ line: 2 });
    expect(r.findings[0]!.hint).toMatch(/aliases and anchors/);
  });

  it.each([
    ['a: !!binary aGk=', '!!binary'],
    ['a: !!timestamp 2026-01-01', '!!timestamp'],
    ['a: !!str 12', '!!str'],
    ['a: !custom x', '!custom'],
    ['a: !!js/function "function () {}"', '!!js/function'],
  ])('refuses the tag in %s', (line, tag) => {
    const r = read(`ok: 1\n${line}\n`);
    expect(r.value).toBeUndefined();
    expect(r.rules).toContain('draft/tag');
    const f = r.findings.find((x) => x.rule === 'draft/tag')!;
    expect(f.message).toContain(tag);
    expect(f.line).toBe(3);
  });

  it('refuses a duplicate key, at the second one', () => {
    const r = read('a: 1\nb: 2\na: 3\n');
    expect(r.value).toBeUndefined();
    expect(r.findings).toEqual([expect.objectContaining({ rule: 'draft/duplicate-key', line: 4 })]);
  });

  it.each(['1: x', 'true: x', 'null: x', '~: x', '1.5: x', '[a, b]: x', '{a: 1}: x'])('refuses the non-string key in %s', (line) => {
    const r = read(`ok: 1\n${line}\n`);
    expect(r.value).toBeUndefined();
    expect(r.findings).toEqual([expect.objectContaining({ rule: 'draft/key-type', line: 3, column: 1 })]);
  });

  it('accepts the same keys quoted', () => {
    expect(read('"1": x\n"true": y\n').value).toEqual({ '1': 'x', true: 'y' });
  });

  it.each(['.nan', '.inf', '-.inf', '1e999'])('refuses %s, which has no JSON form', (n) => {
    const r = read(`n: ${n}\n`);
    expect(r.value).toBeUndefined();
    expect(r.rules).toEqual(['draft/number']);
  });

  it('reports a syntax error with its line', () => {
    const r = read('a: 1\nb: [unclosed\nc: 2\n');
    expect(r.value).toBeUndefined();
    expect(r.rules[0]).toBe('draft/yaml');
    expect(r.findings[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it('keeps __proto__ as a plain member', () => {
    const v = read('__proto__: {polluted: true}\n').value as Record<string, unknown>;
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('safe YAML: positions', () => {
  it('maps pointers to the draft lines of keys and values', () => {
    const r = read('a: 1\nb:\n  c: [x, y]\n');
    expect(r.map.locate('/b/c/1')).toEqual({ line: 4, column: 10 });
    expect(r.map.locate('/b/c', 'key')).toEqual({ line: 4, column: 3 });
    expect(r.map.locate('/b/missing')).toEqual(r.map.locate('/b'));
  });
});

describe('safe YAML: writing', () => {
  it('quotes strings that would read as something else, and reads them back', () => {
    const value = { v: '3.0', n: 'null', t: 'true', d: '2026-01-14', y: 'yes', h: '#x', s: ' lead', m: 'a\n\nb\n', e: '' };
    expect(parseYamlData(fm(stringifyYamlData(value))).value).toEqual(value);
    expect(stringifyYamlData({ v: '3.0' })).toBe('v: "3.0"\n');
  });

  it('writes multi-line text as a literal block and does not fold long lines', () => {
    const long = 'word '.repeat(60).trim();
    const text = stringifyYamlData({ notes: 'line one\nline two', long });
    expect(text).toContain('notes: |-\n  line one\n  line two\n');
    expect(text).toContain(`long: ${long}\n`);
  });
});
