import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { info, out, UsageError } from '../cli.ts';

/** Writes a command's result to --out FILE (and says where), or to standard output when no --out was given. */
export function writeOutput(path: string | undefined, text: string, option = 'out'): void {
  if (!path) {
    out(text);
    return;
  }
  try {
    writeFileSync(path, text);
  } catch (err) {
    throw new UsageError(`cannot write --${option} ${path}: ${(err as Error).message}`);
  }
  info(`wrote ${resolve(path)}`);
}
