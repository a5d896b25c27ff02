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
import { closeSync, fstatSync, lstatSync, openSync, rmSync } from 'node:fs';
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

/** How long fileSystemNowAfter waits at most for the clock to pass a change (a tick is a few milliseconds). */
const TICK_WAIT_MS = 20;

/**
 * fileSystemNow of `dir`, taken once the file system's clock has passed the last change of each of `files` (a change
 * made just before falls in the same tick, and "before" is strict): the files are then known unchanged since, while
 * their ctime stays before it. Waits a tick at most (TICK_WAIT_MS: a file system that keeps whole seconds gives the
 * moment as it is); undefined as fileSystemNow is.
 */
export function fileSystemNowAfter(dir: string, files: readonly string[]): bigint | undefined {
  const waited = Date.now();
  for (;;) {
    const moment = fileSystemNow(dir);
    if (moment === undefined) return undefined;
    const changed = files.some((file) => {
      const status = lstatSync(file, { bigint: true, throwIfNoEntry: false });
      return status !== undefined && !changedBefore(status, moment);
    });
    if (!changed || Date.now() - waited >= TICK_WAIT_MS) return moment;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1); // a millisecond
  }
}
