/** Runs the validate CLI as a child process, on the project's Node 22 (type stripping runs the .ts directly). */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { REPO_ROOT } from './records.ts';

export const NODE = resolve(REPO_ROOT, 'node_modules/.bin/node');
export const CLI = resolve(REPO_ROOT, 'src/cli/validate.ts');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], { cwd = REPO_ROOT, env = {} }: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<CliResult> {
  const base: Record<string, string | undefined> = { ...process.env };
  delete base.RECORDS_DIR;
  delete base.NO_COLOR;
  delete base.FORCE_COLOR;
  return new Promise((done, fail) => {
    execFile(NODE, [CLI, ...args], { cwd, env: { ...base, ...env } as NodeJS.ProcessEnv, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return fail(err);
      done({ code: err ? (err.code as number) : 0, stdout, stderr });
    });
  });
}
