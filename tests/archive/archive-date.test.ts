/**
 * archiveDateOf (src/core/archive/paths.ts): the archive date a conventional record id names, if that day exists.
 * It remembers which days exist; asked again, in any order, it answers as it did.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { archiveDateOf } from '../../src/core/archive/paths.ts';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Whether y-m-d is a day of the proleptic Gregorian calendar, worked out without Date. */
function dayExists(y: number, m: number, d: number): boolean {
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return length !== undefined && d >= 1 && d <= length;
}

describe('archiveDateOf', () => {
  it('gives the day of an id whose day exists, and nothing for one whose day does not, asked once or again', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 999_999 }), (y, m, d, seq) => {
        const day = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
        const expected = dayExists(y, m, d) ? day : undefined;
        expect(archiveDateOf(`echo-${day}-${pad(seq, 6)}`)).toBe(expected);
        expect(archiveDateOf(`echo-${day}-${pad((seq + 1) % 1_000_000, 6)}`)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('names the days that need care', () => {
    expect(archiveDateOf('echo-2024-02-29-000001')).toBe('2024-02-29');
    expect(archiveDateOf('echo-2026-02-29-000001')).toBeUndefined();
    expect(archiveDateOf('echo-2000-02-29-000001')).toBe('2000-02-29');
    expect(archiveDateOf('echo-1900-02-29-000001')).toBeUndefined();
    expect(archiveDateOf('echo-2026-02-30-000001')).toBeUndefined();
    expect(archiveDateOf('echo-2026-02-30-000002')).toBeUndefined();
    expect(archiveDateOf('echo-2026-1-01-000001')).toBeUndefined();
    expect(archiveDateOf('report-2026-01-01')).toBeUndefined();
  });
});
