/**
 * The arguments package.json's script `name` gives `node` (a script of the form "node …", run from the project root),
 * so that a benchmark or a test runs a command as `npm run` does without npm itself in the measured process tree.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function npmScriptArgs(project: string, name: string): string[] {
  const script = (JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[name];
  const [command, ...args] = script?.split(/\s+/) ?? [];
  if (command !== 'node') throw new Error(`package.json's ${name} script is not of the form "node …": ${script}`);
  return args;
}
