/**
 * Places a file at a second path without copying its bytes when it can: a hard link (one metadata write, identical
 * by construction), replacing a stale file at the target; a copy where links are impossible (another file system, or
 * one without links). Used to publish raw records and to stage record pages for the search index.
 */
import { copyFileSync, linkSync, unlinkSync } from 'node:fs';
import { copyFile, link, unlink } from 'node:fs/promises';

const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK', 'ENOSYS']);

/** Links `source` at `target`, or copies it when links are unavailable. True if linked. */
export async function linkOrCopy(source: string, target: string): Promise<boolean> {
  try {
    await link(source, target);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      await unlink(target);
      return linkOrCopy(source, target);
    }
    if (code !== undefined && NO_LINK.has(code)) {
      await copyFile(source, target);
      return false;
    }
    throw err;
  }
}

/** `linkOrCopy` for callers that work synchronously (a worker thread writing its batch of files). */
export function linkOrCopySync(source: string, target: string): boolean {
  try {
    linkSync(source, target);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      unlinkSync(target);
      return linkOrCopySync(source, target);
    }
    if (code !== undefined && NO_LINK.has(code)) {
      copyFileSync(source, target);
      return false;
    }
    throw err;
  }
}
