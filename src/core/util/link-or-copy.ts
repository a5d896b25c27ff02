/**
 * Places a file at a second path without copying its bytes when it can: a hard link (one metadata write, identical
 * by construction), replacing a stale file at the target; a copy where links are impossible (another file system, or
 * one without links). Used to publish raw records and cached pages (src/core/util/update-in-place.ts) and to store
 * pages in the page cache.
 */
import { copyFileSync, linkSync, unlinkSync } from 'node:fs';

const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK', 'ENOSYS']);

/** Links `source` at `target` (replacing a file there), or copies it when links are unavailable. True if linked. */
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
