/** One staging folder per build (src/site/build/5-staging.ts): never shared by two builds; orphans removed. */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStaging } from '../../src/site/build/5-staging.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('createStaging', () => {
  it('gives each build its own folder, even two builds of one process', () => {
    const parent = join(tempDir('echo-staging-'), '.astro');
    const a = createStaging(parent);
    const b = createStaging(parent);
    expect(a).not.toBe(b);
    expect(existsSync(a) && existsSync(b)).toBe(true);
    expect(a.startsWith(join(parent, `echo-records-${process.pid}-`))).toBe(true);
    // it becomes a folder of the published site (records/): readable by all, unlike mkdtemp's 0700
    expect(statSync(a).mode & 0o777).toBe(0o755);
  });

  it("removes folders of builds whose process is gone, and keeps live builds' and everything else", () => {
    const parent = tempDir('echo-staging-');
    const gone = join(parent, 'echo-records-2147483646-abc'); // no such process
    const live = join(parent, `echo-records-${process.ppid}-abc`);
    const other = join(parent, 'collections');
    for (const dir of [gone, live, other]) mkdirSync(join(dir, 'x'), { recursive: true });
    const mine = createStaging(parent);
    expect(readdirSync(parent).sort()).toEqual(['collections', `echo-records-${process.ppid}-abc`, mine.slice(parent.length + 1)].sort());
  });
});
