/**
 * Reads an archive root: every file under it (hidden files and folders excepted), in a stable order, with each
 * .json file parsed strictly. Reading is separate from judging so that callers (the CLI, the site loader) share it.
 */
import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import { parseStrictJson, type StrictParseResult } from '../json/strict-parse.ts';
import { MAX_RECORD_BYTES } from '../rules/file/too-large.ts';
import type { ArchiveFile, ArchiveLookup, ArchiveRecord, JsonObject } from '../rules/rule.ts';
import { recordIdOf } from './paths.ts';

export interface LoadedFile extends ArchiveFile, ArchiveRecord {
  /** Exact bytes of a .json file within the size limit (raw records are served and hashed as they are). */
  bytes?: Buffer;
  parsed?: StrictParseResult;
}

export interface LoadedArchive extends ArchiveLookup {
  root: string;
  files: LoadedFile[];
}

export class ArchiveRootError extends Error {}

export async function loadArchive(root: string): Promise<LoadedArchive> {
  let paths: string[];
  try {
    paths = await fg('**/*', { cwd: root, onlyFiles: true, dot: false, followSymbolicLinks: false, throwErrorOnBrokenSymbolicLink: false, suppressErrors: false });
  } catch (err) {
    throw new ArchiveRootError(`cannot read the archive root ${root}: ${(err as Error).message}`);
  }
  paths.sort(comparePaths);

  const files = paths.map((path): LoadedFile => {
    const file: LoadedFile = { path, id: recordIdOf(path), size: 0 };
    if (!path.endsWith('.json')) return file;
    const bytes = readFileSync(`${root}/${path}`);
    file.size = bytes.length;
    if (bytes.length > MAX_RECORD_BYTES) return file;
    file.bytes = bytes;
    file.parsed = parseStrictJson(bytes);
    if (file.parsed.isObject) file.record = file.parsed.value as JsonObject;
    return file;
  });

  const byPath = new Map(files.map((f) => [f.path, f]));
  return {
    root,
    files,
    recordAt: (path) => {
      const f = byPath.get(path);
      return f && f.path.endsWith('.json') ? f : undefined;
    },
  };
}

/** Code-point order, the same on every machine and locale (the public index relies on it). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
