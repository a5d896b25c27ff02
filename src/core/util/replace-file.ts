/**
 * Replacing a small file of a cache whole, or not at all: written under a temporary name beside it and renamed over
 * it, so that a reader finds the old file or the new one, never half of one. Best effort: a cache that cannot be
 * written costs the next run time, never this one, so failing says false and leaves no temporary file behind.
 * (Files a reader must never lose, such as the transparency log's and the intake journal's, also sync; not these.)
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

/** Replaces `file` with `data`; whether it did. The temporary name is the process's and thread's own. */
export function replaceCacheFile(file: string, data: string | Uint8Array): boolean {
  const temporary = `${file}.${process.pid}.${threadId}.tmp`;
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, file);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // not made: the folder is not one, or cannot be written
    }
    return false;
  }
}
