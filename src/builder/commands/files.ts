import { readFileSync } from 'node:fs';
import { UsageError } from '../cli.ts';

export function readInput(path: string, option = 'file'): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read --${option} ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}
