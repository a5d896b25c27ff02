/**
 * Moves every entry (file or folder) of one folder into another, each by one rename; across file systems, where a
 * rename is impossible, by a copy. Refuses to replace anything already at the target: the caller says what exists
 * there. Used to move the record pages and raw records staged during a build into the build's output.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Moves each entry of `from` into `to` (created if missing); the number moved. */
export function moveEntries(from: string, to: string, taken: (name: string) => string): number {
  mkdirSync(to, { recursive: true });
  const names = readdirSync(from);
  for (const name of names) {
    const target = join(to, name);
    if (existsSync(target)) throw new Error(taken(name));
    try {
      renameSync(join(from, name), target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      cpSync(join(from, name), target, { recursive: true });
      rmSync(join(from, name), { recursive: true, force: true });
    }
  }
  return names.length;
}
