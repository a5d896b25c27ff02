/**
 * A file's status change time (ctime) as proof that its bytes are as they were: any write, truncation, rename or new
 * link sets a file's ctime to the kernel's clock, and no call of a user's process sets it back (unlike the
 * modification time, which `touch` and `utimes` set at will). So a file whose ctime is before a moment, seen again
 * later, has held the same bytes since that moment. The site build uses it for what it checked by hash before that
 * moment: page cache entries (src/site/build/cache/page-cache.ts) and record files (src/site/build/4-raw-records.ts).
 */

/**
 * How far before a moment a ctime must be to count as before it: the kernel stamps files with a clock that may trail
 * the process's by a tick, and some file systems keep whole seconds. Two seconds covers both; a file inside the
 * margin is simply checked by its hash.
 */
export const CHANGE_TIME_MARGIN_MS = 2000;

/** Whether a file of this status last changed before `moment` (ms since the epoch), by more than the margin. */
export function changedBefore(status: { ctimeMs: number }, moment: number): boolean {
  return status.ctimeMs < moment - CHANGE_TIME_MARGIN_MS;
}
