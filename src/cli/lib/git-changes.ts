/**
 * What a branch changes in the archive, from git (`validate --changed`): the files added, modified or renamed since
 * the merge base with a base ref — committed, staged, unstaged and untracked alike, so it works before a commit —
 * and the record files deleted or renamed away. Paths come back relative to the archive root.
 */
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { RemovedRecord } from '../../core/rules/change/removed-record.ts';

import { GitChangesError } from './git-errors.ts';

export { GitChangesError };

export interface ArchiveChanges {
  /** The ref compared against, as given or found (e.g. origin/main). */
  base: string;
  /** The merge-base commit of `base` and HEAD. */
  mergeBase: string;
  /** Archive paths added, modified or renamed to (files that exist now). */
  changed: string[];
  /** Records deleted, or renamed away (with where to). */
  removed: RemovedRecord[];
}

function git(cwd: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stderr?: string; code?: string; message: string };
    if (e.code === 'ENOENT') throw new GitChangesError('--changed needs git, and git is not installed');
    throw new GitChangesError(`git ${args.join(' ')} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}

function refExists(cwd: string, ref: string): boolean {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The default branch to compare with: origin's HEAD, else origin/main, main, origin/master or master. */
export function defaultBase(cwd: string): string {
  try {
    const head = execFileSync('git', ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (head && refExists(cwd, head)) return head;
  } catch {
    // no origin/HEAD: try the usual names
  }
  for (const ref of ['origin/main', 'main', 'origin/master', 'master']) if (refExists(cwd, ref)) return ref;
  throw new GitChangesError('cannot find the default branch (no origin/HEAD, main or master): name the base with --base REF');
}

/** NUL-separated `git diff --name-status -z` output → entries. */
function parseNameStatus(out: string): Array<{ status: string; from: string; to?: string }> {
  const parts = out.split('\0');
  const entries: Array<{ status: string; from: string; to?: string }> = [];
  for (let i = 0; i < parts.length - 1; ) {
    const status = parts[i++]!;
    if (status === '') continue;
    if (status[0] === 'R' || status[0] === 'C') {
      entries.push({ status: status[0], from: parts[i++]!, to: parts[i++]! });
    } else {
      entries.push({ status: status[0]!, from: parts[i++]! });
    }
  }
  return entries;
}

export function archiveChanges(root: string, baseRef?: string): ArchiveChanges {
  const absRoot = realpathSync(resolve(root));
  const top = realpathSync(git(absRoot, ['rev-parse', '--show-toplevel']).trim());
  const base = baseRef ?? defaultBase(top);
  if (!refExists(top, base)) throw new GitChangesError(`--base ${base} is not a commit in this repository (in CI, fetch it first: git fetch origin ${base.replace(/^origin\//, '')})`);
  const mergeBase = git(top, ['merge-base', base, 'HEAD']).trim();
  const rootInRepo = relative(top, absRoot).split(sep).join('/');
  const pathspec = rootInRepo === '' ? '.' : rootInRepo;
  const toArchive = (repoPath: string): string | undefined => {
    if (rootInRepo === '') return repoPath;
    return repoPath.startsWith(`${rootInRepo}/`) ? repoPath.slice(rootInRepo.length + 1) : undefined;
  };

  const changed = new Set<string>();
  const removed: RemovedRecord[] = [];
  // The working tree against the merge base: what the branch (and any uncommitted work) changes. Records share
  // most of their fields, so only a nearly unchanged file (90 %) counts as renamed, not a new record beside a deleted one.
  const diff = git(top, ['diff', '--name-status', '-z', '-M90%', '--no-ext-diff', '--no-textconv', mergeBase, '--', pathspec]);
  for (const e of parseNameStatus(diff)) {
    const from = toArchive(e.from);
    const to = e.to === undefined ? undefined : toArchive(e.to);
    if (e.status === 'D') {
      if (from?.endsWith('.json')) removed.push({ path: from });
    } else if (e.status === 'R') {
      if (from?.endsWith('.json')) removed.push(to === undefined ? { path: from } : { path: from, renamedTo: to });
      if (to !== undefined) changed.add(to);
    } else if (e.status === 'C') {
      if (to !== undefined) changed.add(to);
    } else if (from !== undefined) {
      changed.add(from);
    }
  }
  const untracked = git(top, ['ls-files', '--others', '--exclude-standard', '-z', '--', pathspec]);
  for (const p of untracked.split('\0')) {
    const path = p === '' ? undefined : toArchive(p);
    if (path !== undefined) changed.add(path);
  }
  return { base, mergeBase, changed: [...changed].sort(), removed };
}
