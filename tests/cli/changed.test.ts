/**
 * `validate --changed` against a temporary git repository: records added, modified, deleted and renamed on a branch
 * (and uncommitted work), compared with the merge base of the default branch or of --base.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveChanges } from '../../src/cli/lib/git-changes.ts';
import { canonicalRecordText } from '../../src/core/record/canonical-layout.ts';
import { runCli } from '../helpers/cli.ts';
import { echoWith, validEcho } from '../helpers/records.ts';

let repo = '';
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
/** A valid record of its own (records share most fields; git pairs renames by similarity). */
const recordNo = (n: number) => echoWith({ '/echo': `Record ${n}: ${`what agent ${n} understood, in its own words. `.repeat(40)}` });
function write(path: string, content: unknown): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), typeof content === 'string' ? content : canonicalRecordText(content));
}

interface JsonReport {
  summary: { files: number; invalid: number };
  files: Array<{ path: string; valid: boolean; diagnostics: Array<{ rule: string; severity: string; message: string; hint: string }> }>;
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'echo-archive-git-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'test@example.org');
  git('config', 'user.name', 'Test');
  git('config', 'commit.gpgsign', 'false');
  write('README.md', '# a repository with an archive in records/\n');
  write('records/2026/echo-2026-01-01-000001.json', recordNo(1));
  write('records/2026/echo-2026-01-02-000002.json', recordNo(2));
  write('records/2026/echo-2026-01-03-000003.json', recordNo(3));
  write('records/2026/echo-2026-01-04-000004.json', recordNo(4));
  write('records/2026/echo-2026-01-05-000005.json', recordNo(5));
  write('src/other.txt', 'not the archive\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
  git('checkout', '-qb', 'contribution');
  // added (valid), modified (invalid), deleted, renamed, moved, a change outside the archive
  write('records/2026/echo-2026-02-01-000006.json', recordNo(6));
  write('records/2026/echo-2026-01-02-000002.json', echoWith({ '/context_depth': 'C0_homepage_only' }, recordNo(2)));
  git('rm', '-q', 'records/2026/echo-2026-01-03-000003.json');
  git('mv', 'records/2026/echo-2026-01-04-000004.json', 'records/2026/echo-2026-01-04-000099.json');
  mkdirSync(join(repo, 'records/moved'));
  git('mv', 'records/2026/echo-2026-01-05-000005.json', 'records/moved/echo-2026-01-05-000005.json');
  write('src/other.txt', 'changed\n');
  git('add', '-A');
  git('commit', '-qm', 'contribution');
});

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe('archiveChanges', () => {
  it('lists added, modified and renamed-to files, and deleted or renamed records, relative to the archive root', () => {
    const c = archiveChanges(join(repo, 'records'));
    expect(c.base).toBe('main');
    expect(c.changed).toEqual([
      '2026/echo-2026-01-02-000002.json',
      '2026/echo-2026-01-04-000099.json',
      '2026/echo-2026-02-01-000006.json',
      'moved/echo-2026-01-05-000005.json',
    ]);
    expect(c.removed).toEqual(
      expect.arrayContaining([
        { path: '2026/echo-2026-01-03-000003.json' },
        { path: '2026/echo-2026-01-04-000004.json', renamedTo: '2026/echo-2026-01-04-000099.json' },
        { path: '2026/echo-2026-01-05-000005.json', renamedTo: 'moved/echo-2026-01-05-000005.json' },
      ]),
    );
    expect(c.removed).toHaveLength(3);
  });

  it('is empty against the branch itself', () => {
    expect(archiveChanges(join(repo, 'records'), 'HEAD')).toMatchObject({ changed: [], removed: [] });
  });

  it('includes uncommitted and untracked work', () => {
    write('records/2026/echo-2026-03-01-000007.json', validEcho());
    try {
      expect(archiveChanges(join(repo, 'records')).changed).toContain('2026/echo-2026-03-01-000007.json');
    } finally {
      unlinkSync(join(repo, 'records/2026/echo-2026-03-01-000007.json'));
    }
  });
});

describe('validate --changed', () => {
  it('reports the changed records only, and a deleted or renamed record as an error that says why', async () => {
    const r = await runCli(['--changed', '--format', 'json'], { cwd: repo });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as JsonReport;
    const byPath = new Map(report.files.map((f) => [f.path, f]));
    expect([...byPath.keys()].sort()).toEqual([
      '2026/echo-2026-01-02-000002.json',
      '2026/echo-2026-01-03-000003.json',
      '2026/echo-2026-01-04-000004.json',
      '2026/echo-2026-01-04-000099.json',
      '2026/echo-2026-01-05-000005.json',
      '2026/echo-2026-02-01-000006.json',
      'moved/echo-2026-01-05-000005.json',
    ]);
    expect(byPath.get('2026/echo-2026-02-01-000006.json')!.valid).toBe(true);
    expect(byPath.get('2026/echo-2026-01-02-000002.json')!.diagnostics.map((d) => d.rule)).toEqual(['cross/c0-assessment']);

    const deleted = byPath.get('2026/echo-2026-01-03-000003.json')!;
    expect(deleted.valid).toBe(false);
    expect(deleted.diagnostics).toEqual([expect.objectContaining({ rule: 'change/removed-record', severity: 'error' })]);
    expect(deleted.diagnostics[0]!.message).toMatch(/was deleted: the archive publishes it at permanent URLs \(\/records\/echo-2026-01-03-000003\//);
    expect(deleted.diagnostics[0]!.hint).toMatch(/archive_status "superseded" with a superseded_reason .* verification_status "invalidated"/);

    const renamed = byPath.get('2026/echo-2026-01-04-000004.json')!;
    expect(renamed.diagnostics[0]).toMatchObject({ rule: 'change/removed-record', severity: 'error' });
    expect(renamed.diagnostics[0]!.message).toMatch(/renamed to 2026\/echo-2026-01-04-000099\.json: a record's id is its file name/);

    const moved = byPath.get('2026/echo-2026-01-05-000005.json')!;
    expect(moved.valid).toBe(true);
    expect(moved.diagnostics).toEqual([expect.objectContaining({ rule: 'change/moved-record', severity: 'warning' })]);
  });

  it('passes a branch whose changes are valid, and reports nothing for no change', async () => {
    git('checkout', '-qb', 'clean', 'main');
    try {
      write('records/2026/echo-2026-02-01-000006.json', validEcho());
      const added = await runCli(['--changed', '--base', 'main'], { cwd: repo });
      expect(added.code).toBe(0);
      expect(added.stdout).toMatch(/✔ 1 file valid/);
      expect(added.stderr).toMatch(/validate: 1 file of the archive added, modified, renamed or deleted since main \(merge base [0-9a-f]{12}\)\./);
      unlinkSync(join(repo, 'records/2026/echo-2026-02-01-000006.json'));
      const none = await runCli(['--changed', '--format', 'markdown'], { cwd: repo });
      expect(none.code).toBe(0);
      expect(none.stdout).toContain('No record to check');
    } finally {
      git('checkout', '-q', 'contribution');
    }
  });

  it('takes --root and --base, and refuses what it cannot compare', async () => {
    const r = await runCli(['--changed', '--root', join(repo, 'records'), '--base', 'main', '--format', 'json'], { cwd: repo });
    expect((JSON.parse(r.stdout) as JsonReport).summary.files).toBe(7);
    const badBase = await runCli(['--changed', '--base', 'no-such-branch'], { cwd: repo });
    expect(badBase.code).toBe(2);
    expect(badBase.stderr).toMatch(/--base no-such-branch is not a commit/);
    expect((await runCli(['--base', 'main'], { cwd: repo })).stderr).toMatch(/--base applies to --changed/);
    const outside = mkdtempSync(join(tmpdir(), 'echo-archive-nogit-'));
    try {
      mkdirSync(join(outside, 'records'));
      const noGit = await runCli(['--changed'], { cwd: outside });
      expect(noGit.code).toBe(2);
      expect(noGit.stderr).toMatch(/git rev-parse --show-toplevel failed/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
