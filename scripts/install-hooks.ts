/**
 * `npm run hooks:install` — an optional git pre-commit hook that validates the staged record files (only those,
 * with `npm run validate -- FILE…`, which reads the rest of the archive only for ids and linked reports). It checks the
 * files as they are in the working tree. It never replaces a hook of your own: it says what to add instead.
 * `npm run hooks:install -- --remove` takes it out again.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MARKER = '# echo-archive pre-commit hook (npm run hooks:install)';

export const HOOK = `#!/bin/sh
${MARKER}: validates the staged record files.
# Skip it once with: git commit --no-verify. Remove it with: npm run hooks:install -- --remove
records_dir="\${RECORDS_DIR:-records}"
staged=$(git diff --cached --name-only --diff-filter=ACMR -z -- "$records_dir" | tr '\\0' '\\n' | grep '\\.json$')
[ -z "$staged" ] && exit 0
echo "$staged" | tr '\\n' '\\0' | xargs -0 npm run --silent validate --
`;

function hooksDir(repo: string): string {
  const dir = execFileSync('git', ['rev-parse', '--git-path', 'hooks'], { cwd: repo, encoding: 'utf8' }).trim();
  return isAbsolute(dir) ? dir : join(repo, dir);
}

/** Installs (or with `remove`, removes) the hook in the git repository at `repo`; returns the exit status. */
export function installHook(repo: string, { remove = false } = {}): number {
  const file = join(hooksDir(repo), 'pre-commit');
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const ours = existing?.includes(MARKER) ?? false;
  if (remove) {
    if (ours) unlinkSync(file);
    process.stdout.write(ours ? `Removed ${file}.\n` : `No echo-archive hook at ${file}: nothing to remove.\n`);
    return 0;
  }
  if (existing !== undefined && !ours) {
    process.stderr.write(
      `hooks:install: ${file} exists and is not ours; it is left alone. To validate staged records from it, add:\n\n` +
        HOOK.split('\n').slice(3).join('\n'),
    );
    return 1;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, HOOK);
  chmodSync(file, 0o755);
  process.stdout.write(`Installed ${file}: each commit now validates its staged record files (skip once with git commit --no-verify).\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = installHook(REPO_ROOT, { remove: process.argv.includes('--remove') });
}
