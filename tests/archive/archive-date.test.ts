/**
 * archiveDateOf (src/core/archive/paths.ts): the archive date a conventional record id names, if that day exists,
 * against Date's own calendar (which the function followed when it made a Date for each id).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { archiveDateOf } from '../../src/core/archive/paths.ts';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Whether y-m-d is a day as Date sees it: parsed, and printed back as the same day (no roll-over into the next month). */
function dayExists(y: number, m: number, d: number): boolean {
  const day = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
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
