import { readFileSync } from 'node:fs';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import { UsageError } from '../cli.ts';

export function readInput(path: string, option = 'file'): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read --${option} ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

/** A JSON object from a file, read strictly (the core's strict JSON); a UsageError saying where it is not one. */
export function readJsonObject(path: string, option: string, what = 'a JSON object'): Record<string, unknown> {
  const parsed = parseStrictJson(readInput(path, option));
  const problem = parsed.findings[0];
  if (problem) throw new UsageError(`--${option} ${path}:${problem.line ?? 1}:${problem.column ?? 1}: ${problem.message}`);
  if (!parsed.isObject) throw new UsageError(`--${option} ${path} must hold ${what}`);
  return parsed.value as Record<string, unknown>;
}
