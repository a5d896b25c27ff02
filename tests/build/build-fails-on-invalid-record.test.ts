/**
 * The contract of issue 2's "done": one bad record in the archive makes `astro build` fail, naming that record's
 * file, line, rule and fix in the same words as `npm run validate`; a record the specification allows builds. Runs
 * the real Astro build as a child process; and `npm run build`, whose `astro build` runs beside the site build and is
 * stopped when the archive turns out invalid.
 */
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/records.ts';
import { writeFiles } from '../helpers/archive.ts';
import { runCli } from '../helpers/cli.ts';

const base = mkdtempSync(join(tmpdir(), 'echo-archive-build-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** `astro build` alone, as a user may run it: the whole site inside Astro's process. */
function astroBuild(recordsDir: string): Promise<{ code: number; output: string }> {
  return run([resolve(REPO_ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', join(base, 'dist')], recordsDir);
}

/** The project's Node with `args`, over the archive at `recordsDir`, with a build cache of the test's own. */
function run(args: string[], recordsDir: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(
      resolve(REPO_ROOT, 'node_modules/.bin/node'),
      args,
      {
        cwd: REPO_ROOT,
        env: { ...process.env, RECORDS_DIR: recordsDir, ECHO_ARCHIVE_CACHE_DIR: join(base, 'cache'), ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('npm run build over an archive with one bad record', () => {
  it('fails and names the file, line, column, rule and fix, as the CLI does', async () => {
    const root = join(base, 'records');
    cpSync(resolve(REPO_ROOT, 'records'), root, { recursive: true });
    // A C0 record that claims a qualified assessment: cross/c0-assessment, on the assessment_state line.
    const bad = JSON.parse(JSON.stringify((await import('../fixtures/records/valid-echo.json', { with: { type: 'json' } })).default));
    bad.context_depth = 'C0_homepage_only';
    bad.assessment_state = 'qualified_assessment';
    writeFiles(root, { '2026/echo-2026-11-22-000099.json': bad });

    const cli = await runCli(['--root', root, '--no-color']);
    expect(cli.code).toBe(1);
    const line = cli.stdout.split('\n').find((l) => l.includes('cross/c0-assessment'));
    expect(line).toMatch(/echo-2026-11-22-000099\.json:\d+:\d+ error cross\/c0-assessment /);
    const location = /echo-2026-11-22-000099\.json:(\d+:\d+)/.exec(line!)![1];

    const build = await astroBuild(root);
    expect(build.code).not.toBe(0);
    expect(build.output).toContain(`echo-2026-11-22-000099.json:${location} error cross/c0-assessment`);
    expect(build.output).toContain('fix: Having read only the homepage is not enough for an assessment');
    expect(build.output).toMatch(/1 of \d+ files invalid/);

    // npm run build: the same report; the astro build it started beside the site build is stopped, nothing is left
    const out = join(base, 'npm-run-build', 'dist');
    const whole = await run([resolve(REPO_ROOT, 'scripts/build.ts'), '--no-cache', '--out-dir', out], root);
    expect(whole.code).toBe(1);
    expect(whole.output).toMatch(/build: running astro build: the build cache is off/);
    expect(whole.output).toContain(`echo-2026-11-22-000099.json:${location} error cross/c0-assessment`);
    expect(whole.output).toMatch(/build: the build failed \(InvalidArchiveError\)/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(join(out, '..')).filter((name) => name.includes('.building-'))).toEqual([]);
    expect(spawnSync('pgrep', ['-f', out]).status, 'an astro build still running').toBe(1);
  }, 120_000);
});

describe('npm run build over an archive with a V2 single-hash record whose gate output allows V2 (DECISIONS 20)', () => {
  it('validates and builds, and the record has its page', async () => {
    const root = join(base, 'records-v2');
    cpSync(resolve(REPO_ROOT, 'records'), root, { recursive: true });
    const record = JSON.parse(JSON.stringify((await import('../fixtures/records/valid-echo.json', { with: { type: 'json' } })).default));
    record.verification_level = 'V2';
    record.verification_scope_label = 'single_hash_verification';
    record.claim_gate_output = { status: 'PASS', allowed_protocol_level: 'V2', required_downgrades: [] };
    writeFiles(root, { '2026/echo-2026-11-22-000098.json': record });

    const cli = await runCli(['--root', root, '--no-color', join(root, '2026/echo-2026-11-22-000098.json')]);
    expect(cli.stdout).not.toMatch(/ error /);
    expect(cli.code).toBe(0);

    const build = await astroBuild(root);
    expect(build.output).not.toMatch(/files invalid/);
    expect(build.code).toBe(0);
    expect(existsSync(join(base, 'dist', 'records', 'echo-2026-11-22-000098', 'index.html'))).toBe(true);
  }, 120_000);
});
