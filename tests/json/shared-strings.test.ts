/**
 * stringSharer (src/core/json/shared-strings.ts): which instance of a string a value holds is not observable in
 * JavaScript, so what is tested is that sharing never changes a value, however nested, and returns the same object.
 * (What it saves is measured in docs/performance.md, "Flat memory".)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringSharer } from '../../src/core/json/shared-strings.ts';

describe('stringSharer', () => {
  it('leaves any JSON value equal to what it was, in place', () => {
    const share = stringSharer();
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const before = structuredClone(value);
        const after = share(value);
        expect(after).toEqual(before);
        if (value !== null && typeof value === 'object') expect(after).toBe(value);
      }),
    );
  });

  it('keeps every string of records that repeat each other, short and long, at any depth', () => {
    const share = stringSharer();
    const long = 'x'.repeat(65);
    const make = () => ({ status: 'none', nested: { list: ['none', 'service.echo.v3', long], deeper: [{ k: 'none' }] }, n: 1, b: true, z: null });
    const records = [make(), make(), make()].map(share);
    for (const r of records) expect(r).toEqual(make());
  });
});
