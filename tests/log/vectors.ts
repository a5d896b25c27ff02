/**
 * The shared known-answer data for the transparency log (../shared/vectors/, beside the repository): read there,
 * never copied. `vectors()` is undefined, with a printed notice, when the folder is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../helpers/records.ts';

export const VECTORS_DIR = resolve(REPO_ROOT, '../shared/vectors');
export const TILES_1000 = join(VECTORS_DIR, 'tlog-tiles-1000');

export const haveVectors = existsSync(join(VECTORS_DIR, 'README.md'));
if (!haveVectors) console.warn(`[log] known-answer tests skipped: the shared vectors are not at ${VECTORS_DIR} (they sit beside the repository, in ../shared).`);

export function vector<T>(name: string): T {
  return JSON.parse(readFileSync(join(VECTORS_DIR, name), 'utf8')) as T;
}
