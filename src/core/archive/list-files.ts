/**
 * The files of an archive root: every regular file under it, hidden files and folders (a leading dot) skipped,
 * symbolic links neither followed nor listed. Paths from the root with forward slashes, in no particular order.
 * (A readdir walk rather than a glob library: it lists 10,000 records in a few milliseconds, and loading
 * fast-glob alone cost about 45 ms of a one-record check.)
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function listArchiveFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile()) out.push(`${prefix}${entry.name}`);
    }
  };
  walk(root, '');
  return out;
}
