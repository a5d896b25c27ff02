/**
 * Moves every entry (file or folder) of one folder into another, each by one rename; across file systems, where a
 * rename is impossible, by a copy. Refuses to replace anything already at the target: the caller says what exists
 * there. Used to move the record pages, raw records and listing pages staged during a build into the build's output.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Moves each entry of `from` into `to` (created if missing); the number moved. */
export function moveEntries(from: string, to: string, taken: (name: string) => string): number {
  mkdirSync(to, { recursive: true });
  const names = readdirSync(from);
  for (const name of names) {
    const target = join(to, name);
    if (existsSync(target)) throw new Error(taken(name));
    moveEntry(join(from, name), target);
  }
  return names.length;
}

/**
 * Moves each entry of `from` into `to` like moveEntries, but into folders that exist at the target: their entries
 * are merged in, one level down at a time. Refuses to replace a file (`taken` gets its path relative to `to`).
 */
export function mergeEntries(from: string, to: string, taken: (path: string) => string, prefix = ''): number {
  mkdirSync(to, { recursive: true });
  let moved = 0;
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    const path = prefix + entry.name;
    let existing;
    try {
      existing = statSync(target);
    } catch {
      moved += moveEntry(source, target);
      continue;
    }
    if (!entry.isDirectory() || !existing.isDirectory()) throw new Error(taken(path));
    moved += mergeEntries(source, target, taken, `${path}/`);
  }
  return moved;
}

/** One rename; a copy across file systems. */
function moveEntry(source: string, target: string): number {
  try {
    renameSync(source, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    cpSync(source, target, { recursive: true });
    rmSync(source, { recursive: true, force: true });
  }
  return 1;
}
