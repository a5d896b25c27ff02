/**
 * A file's status change time (ctime) as proof that its bytes are as they were: any write, truncation, rename or new
 * link sets a file's ctime to the kernel's clock, and no call of a user's process sets it back (unlike the
 * modification time, which `touch` and `utimes` set at will). So a file whose ctime is before a moment, seen again
 * later, has held the same bytes since that moment. The site build uses it for what it checked by hash after such a
 * moment: page cache entries (src/site/build/cache/page-cache.ts) and record files (src/site/build/4-raw-records.ts).
 *
 * The moment is taken from the file system itself (fileSystemNow), not from the process's clock: the kernel stamps
 * files with a clock that may trail the process's by a tick, and some file systems keep whole seconds. A file changed
 * after the moment then has a ctime at least the moment's, whatever the grain, and "before" is strictly less.
 */
import { closeSync, fstatSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Now, as the file system at `dir` stamps files: the ctime (nanoseconds since the epoch) of a file made there now,
 * and removed again; undefined if none can be made (a read-only folder: nothing is then known unchanged).
 */
export function fileSystemNow(dir: string): bigint | undefined {
  const marker = join(dir, `.now-${process.pid}-${process.hrtime.bigint()}`);
  try {
    const fd = openSync(marker, 'wx');
    try {
      return fstatSync(fd, { bigint: true }).ctimeNs;
    } finally {
      closeSync(fd);
      rmSync(marker, { force: true });
    }
  } catch {
    return undefined;
  }
}

/** Whether a file of this status last changed before `moment` (fileSystemNow of its file system). */
export function changedBefore(status: { ctimeNs: bigint }, moment: bigint): boolean {
  return status.ctimeNs < moment;
}
