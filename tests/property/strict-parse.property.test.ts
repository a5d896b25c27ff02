import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStrictJson, type StrictParseResult } from '../../src/core/json/strict-parse.ts';

/** A finding's position lies inside the text (or just past the end of a line, for input that ends early). */
function positionsAreSound(r: StrictParseResult): void {
  const lines = r.text.split('\n');
  for (const f of r.findings) {
    expect(Number.isInteger(f.line) && Number.isInteger(f.column)).toBe(true);
    expect(f.line).toBeGreaterThanOrEqual(1);
    expect(f.column).toBeGreaterThanOrEqual(1);
    expect(f.line).toBeLessThanOrEqual(lines.length);
    expect(f.column).toBeLessThanOrEqual(lines[f.line! - 1]!.length + 1);
    expect(f.rule).toMatch(/^json\/[a-z-]+$/);
    expect(f.message.length).toBeGreaterThan(0);
    expect(f.hint.length).toBeGreaterThan(0);
    expect(f.severity).toBe('error');
  }
}

function consistent(r: StrictParseResult): void {
  positionsAreSound(r);
  if (r.findings.length === 0) {
    // clean means: an object, exactly what a plain JSON reader sees
    expect(r.isObject).toBe(true);
    expect(r.value).toEqual(JSON.parse(r.text));
  }
  if (r.isObject) expect(r.value !== null && typeof r.value === 'object' && !Array.isArray(r.value)).toBe(true);
}

/** Small edits that turn valid JSON into the mistakes people make. */
const damaged = fc
  .tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.constantFrom('', ',', '}', ']', '{', '"', ':', '\\', "'", '/', '//', 'NaN', '\u0000', '\uFEFF', '\n', ' x'), fc.boolean())
  .map(([json, at, insert, drop]) => {
    const i = json.length === 0 ? 0 : at % json.length;
    return json.slice(0, i) + insert + json.slice(drop ? i + 1 : i);
  });

describe('parseStrictJson never throws, and every finding is placed in the text', () => {
  it('arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 120 }), (bytes) => consistent(parseStrictJson(bytes))),
      { numRuns: 500 },
    );
  });

  it('arbitrary strings (any UTF-16, lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 })), (s) => consistent(parseStrictJson(s))),
      { numRuns: 400 },
    );
  });

  it('almost-JSON: valid JSON with one character inserted or replaced', () => {
    fc.assert(fc.property(damaged, (s) => consistent(parseStrictJson(s))), { numRuns: 500 });
  });

  it('UTF-8 bytes of almost-JSON', () => {
    fc.assert(fc.property(damaged, (s) => consistent(parseStrictJson(new Uint8Array(Buffer.from(s, 'utf8'))))), { numRuns: 200 });
  });

  it('any JSON object text is read cleanly; any other JSON value is "not an object"', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (value, pretty) => {
        const r = parseStrictJson(JSON.stringify(value, null, pretty ? 2 : undefined));
        const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
        if (isObject) expect(r.findings).toEqual([]);
        else expect(r.findings.map((f) => f.rule)).toContain('json/not-object');
        consistent(r);
      }),
      { numRuns: 300 },
    );
  });
});
