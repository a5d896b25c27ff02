/**
 * Which file a path named when it was read: `<device>:<inode>`, from bigint status fields (a number loses an inode's
 * precision above 2^53). The validator notes it where it reads a record (src/core/archive/read-file.ts,
 * read-ahead-chunk.ts), the page cache where it knows an entry unchanged (src/site/build/cache/page-cache.ts), and an
 * update in place leaves a file that is the file so named without looking at its source again (update-in-place.ts,
 * linkIfChanged; the site build's raw records: src/site/build/4-raw-records.ts).
 */
export function fileIdentity(status: { dev: bigint; ino: bigint }): string {
  return `${status.dev}:${status.ino}`;
}
