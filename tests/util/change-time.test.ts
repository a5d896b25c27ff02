/**
 * A file's change time as proof it is unchanged since a moment (src/core/util/change-time.ts): before the moment by
 * more than the margin, and a real file's ctime moves with every kind of change, whatever its modification time says.
 */
import { appendFileSync, linkSync, renameSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANGE_TIME_MARGIN_MS, changedBefore } from '../../src/core/util/change-time.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('changedBefore', () => {
  it('holds only for a change time before the moment by more than the margin', () => {
    const moment = 1_800_000_000_000;
    expect(changedBefore({ ctimeMs: moment - CHANGE_TIME_MARGIN_MS - 1 }, moment)).toBe(true);
    expect(changedBefore({ ctimeMs: moment - CHANGE_TIME_MARGIN_MS }, moment)).toBe(false);
    expect(changedBefore({ ctimeMs: moment - 1 }, moment)).toBe(false);
    expect(changedBefore({ ctimeMs: moment + 1 }, moment)).toBe(false);
  });

  it('a real file: unchanged, its change time stays before the moment; any change moves it past, whatever its modification time says', async () => {
    const dir = tempDir('change-time-');
    let file = join(dir, 'a.json');
    writeFileSync(file, '{"a":1}');
    const made = statSync(file);
    expect(changedBefore(statSync(file), made.ctimeMs + CHANGE_TIME_MARGIN_MS + 1)).toBe(true);
    const changes: [string, () => void][] = [
      ['written, same size', () => writeFileSync(file, '{"a":2}')],
      ['appended to', () => appendFileSync(file, ' ')],
      ['cut short', () => truncateSync(file, 3)],
      ['given a second name', () => linkSync(file, join(dir, 'second-name'))],
      ['renamed', () => renameSync(file, (file = join(dir, 'b.json')))],
      ['its modification time set back', () => utimesSync(file, made.atime, made.mtime)],
    ];
    for (const [what, change] of changes) {
      const before = Date.now();
      await new Promise((wait) => setTimeout(wait, 50)); // well past any lag of the kernel's clock behind ours
      change();
      expect(statSync(file).ctimeMs, what).toBeGreaterThan(before);
      expect(changedBefore(statSync(file), before + CHANGE_TIME_MARGIN_MS), what).toBe(false);
    }
  });
});
