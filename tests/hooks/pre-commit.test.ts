/** The optional pre-commit hook, installed into a temporary git repository and run by real commits. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installHook } from '../../scripts/install-hooks.ts';
import { NODE } from '../helpers/cli.ts';
import { echoWith, recordText, REPO_ROOT, validEcho } from '../helpers/records.ts';

let repo = '';
// npm 11 keeps a compile cache in the temporary directory; the hook's `npm run` must leave nothing there.
const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' } });

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'echo-archive-hook-'));
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
  git('config', 'user.email', 'test@example.org');
  git('config', 'user.name', 'Test');
  git('config', 'commit.gpgsign', 'false');
  // The repository's own validate script, as package.json names it, pointing at this checkout's validator.
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'hook-test', private: true, scripts: { validate: `${NODE} ${join(REPO_ROOT, 'src/cli/validate.ts')}` } }));
  mkdirSync(join(repo, 'records/2026'), { recursive: true });
  writeFileSync(join(repo, 'records/2026/echo-2026-01-01-000001.json'), recordText(validEcho()));
  git('add', '-A');
  expect(git('commit', '-qm', 'base').status).toBe(0);
});

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe('pre-commit hook', () => {
  it('installs, and never replaces a hook of your own', () => {
    const hook = join(repo, '.git/hooks/pre-commit');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    expect(installHook(repo)).toBe(1);
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    rmSync(hook);
    expect(installHook(repo)).toBe(0);
    expect(readFileSync(hook, 'utf8')).toContain('echo-archive pre-commit hook');
  });

  it('stops a commit that stages an invalid record, with the validator\'s report', () => {
    writeFileSync(join(repo, 'records/2026/echo-2026-01-02-000002.json'), recordText(echoWith({ '/context_depth': 'C0_homepage_only' })));
    git('add', '-A');
    const r = git('commit', '-qm', 'invalid');
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/echo-2026-01-02-000002\.json:\d+:\d+ error cross\/c0-assessment/);
  });

  it('lets a commit of valid records, and one without records, through', () => {
    writeFileSync(join(repo, 'records/2026/echo-2026-01-02-000002.json'), recordText(validEcho()));
    git('add', '-A');
    expect(git('commit', '-qm', 'valid').status).toBe(0);
    writeFileSync(join(repo, 'notes.txt'), 'not a record\n');
    git('add', '-A');
    expect(git('commit', '-qm', 'no records').status).toBe(0);
  });

  it('can be removed again', () => {
    expect(installHook(repo, { remove: true })).toBe(0);
    expect(existsSync(join(repo, '.git/hooks/pre-commit'))).toBe(false);
  });
});
