/**
 * Which file a path named when it was read: `<device>:<inode>`, from bigint status fields (a number loses an inode's
 * precision above 2^53). The validator notes it where it reads a record (load-archive.ts, read-ahead-worker.ts) and
 * the site build compares it where it publishes the record file (src/site/build/4-raw-records.ts).
 */
export function fileIdentity(status: { dev: bigint; ino: bigint }): string {
  return `${status.dev}:${status.ino}`;
}
