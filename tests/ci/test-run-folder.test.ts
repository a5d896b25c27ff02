/**
 * The test run leaves nothing behind (tests/helpers/global-tmp.ts): the processes tests start keep Node's compile
 * cache in the run's own folder, and the test workers keep none, since a worker writes its cache as it exits, after
 * the run's folder is removed (that left node-compile-cache folders in /tmp).
 */
import { execFileSync } from 'node:child_process';
import { getCompileCacheDir } from 'node:module';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';

describe("Node's compile cache in a test run", () => {
  it('is off in the test worker, and on in the run folder for the processes the tests start', () => {
    expect(getCompileCacheDir()).toBeUndefined();
    const child = execFileSync(process.execPath, ['--input-type=module', '-e', 'import { getCompileCacheDir } from "node:module"; console.log(getCompileCacheDir() ?? "off")'], { encoding: 'utf8' }).trim();
    expect(child.startsWith(`${tmpdir()}/node-compile-cache-`)).toBe(true);
    expect(tmpdir()).toMatch(/echo-archive-tests-/);
  });
});
