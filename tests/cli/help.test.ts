/**
 * Every command a person runs answers --help with what it does and how to call it, exit 0, and does nothing else
 * (the gateway does not start listening, intake opens no store).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE } from '../helpers/cli.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string }> {
  return new Promise((done, fail) => {
    execFile(NODE, ['--disable-warning=ExperimentalWarning', resolve(REPO_ROOT, script), ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 15_000 }, (err, stdout) => {
      if (err && typeof err.code !== 'number') return fail(err);
      done({ code: err ? (err.code as number) : 0, stdout });
    });
  });
}

describe('--help', () => {
  it.each([
    ['src/cli/validate.ts', [], /^Validate the Echo record archive/],
    ['src/cli/new.ts', [], /^Start an Echo record/],
    ['src/cli/log.ts', [], /^The archive's transparency log/],
    ['src/cli/log.ts', ['append'], /^The archive's transparency log/],
    ['src/intake/main.ts', [], /^Review what the intake gateway took in/],
    ['scripts/build.ts', [], /^Usage: npm run build \[-- --no-cache\][\s\S]*--no-cache/],
  ])('%s %s', async (script, before, expected) => {
    const { code, stdout } = await run(script, [...before, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(expected);
  });

  it('the site build refuses an unknown option (exit 2) and builds nothing', async () => {
    const { code } = await run('scripts/build.ts', ['--no-cahce']);
    expect(code).toBe(2);
  });

  it('the gateway prints its settings and does not start', async () => {
    const data = join(tempDir('gateway-help-'), 'data');
    const { code, stdout } = await run('src/gateway/main.ts', ['--help'], { GATEWAY_DATA_DIR: data, PORT: '0' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^The record-chain intake gateway[\s\S]*GATEWAY_DATABASE_URL/);
    expect(stdout).not.toMatch(/listening/);
    expect(existsSync(data)).toBe(false); // no key made, no store opened
  });
});
