/**
 * A file's change time as proof it is unchanged since a moment (src/core/util/change-time.ts): the moment as the file
 * system stamps files, and a real file's ctime moves past it with every kind of change, whatever its modification
 * time says.
 */
import { appendFileSync, chmodSync, linkSync, mkdirSync, readdirSync, renameSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedBefore, fileSystemNow, fileSystemNowAfter } from '../../src/core/util/change-time.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ctimeOf = (file: string) => statSync(file, { bigint: true });

/** A moment after `file`'s last change: the file system's clock moves in ticks, so the next tick of it. */
async function momentAfter(dir: string, file: string): Promise<bigint> {
  for (;;) {
    const moment = fileSystemNow(dir)!;
    if (moment > ctimeOf(file).ctimeNs) return moment;
    await new Promise((wait) => setTimeout(wait, 2));
  }
}

describe('fileSystemNow and changedBefore', () => {
  it('a file made before the moment changed before it; the moment itself is not before itself; the folder is left as it was', () => {
    const dir = tempDir('change-time-');
    writeFileSync(join(dir, 'a.json'), '{"a":1}');
    const made = ctimeOf(join(dir, 'a.json'));
    const moment = fileSystemNow(dir)!;
    expect(moment).toBeGreaterThanOrEqual(made.ctimeNs);
    expect(changedBefore({ ctimeNs: moment - 1n }, moment)).toBe(true);
    expect(changedBefore({ ctimeNs: moment }, moment)).toBe(false);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('no moment where no file can be made (nothing is then known unchanged)', () => {
    const dir = tempDir('change-time-');
    expect(fileSystemNow(join(dir, 'missing'))).toBeUndefined();
    if (process.getuid?.() === 0) return; // root writes into a read-only folder
    mkdirSync(join(dir, 'read-only'));
    chmodSync(join(dir, 'read-only'), 0o500);
    expect(fileSystemNow(join(dir, 'read-only'))).toBeUndefined();
  });

  it('any change after the moment moves the change time past it, even with the old modification time put back', async () => {
    const dir = tempDir('change-time-');
    let file = join(dir, 'a.json');
    writeFileSync(file, '{"a":1}');
    const made = statSync(file);
    const changes: [string, () => void][] = [
      ['written, same size', () => writeFileSync(file, '{"a":2}')],
      ['appended to', () => appendFileSync(file, ' ')],
      ['cut short', () => truncateSync(file, 3)],
      ['given a second name', () => linkSync(file, join(dir, 'second-name'))],
      ['renamed', () => renameSync(file, (file = join(dir, 'b.json')))],
      ['its modification time set back', () => utimesSync(file, made.atime, made.mtime)],
    ];
    for (const [what, change] of changes) {
      const moment = await momentAfter(dir, file);
      expect(changedBefore(ctimeOf(file), moment), `${what}: before the change`).toBe(true);
      change();
      expect(changedBefore(ctimeOf(file), moment), what).toBe(false);
    }
  });
});

describe('fileSystemNowAfter', () => {
  it('gives a moment that every file named changed before, however just before they changed; none where no file can be made', () => {
    const dir = tempDir('change-time-');
    const files = ['a', 'b'].map((name) => join(dir, name));
    for (let i = 0; i < 20; i++) {
      for (const file of files) writeFileSync(file, String(i)); // changed right now: in the moment's tick, mostly
      const moment = fileSystemNowAfter(dir, [...files, join(dir, 'missing')])!;
      for (const file of files) expect(changedBefore(ctimeOf(file), moment)).toBe(true);
    }
    expect(fileSystemNowAfter(join(dir, 'missing'), files)).toBeUndefined();
  });
});
