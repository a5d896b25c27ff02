/** Paths inside an archive: always relative to its root, with forward slashes. */

/**
 * The archive path a record link names (DECISIONS 8: a path from the archive root, a leading `/` allowed), or
 * undefined when the link cannot name a file inside the archive (a URL, `..`, a backslash, an empty segment).
 */
export function resolveArchiveLink(link: string): string | undefined {
  const path = link.startsWith('/') ? link.slice(1) : link;
  if (path === '' || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.includes('\\')) return undefined;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return path;
}

/** File name without `.json`: a record's id (DECISIONS 1). */
export function recordIdOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.endsWith('.json') ? name.slice(0, -'.json'.length) : name;
}

const CONVENTIONAL_ID = /^echo-(\d{4})-(\d{2})-(\d{2})-(\d{6})$/;

/** The archive date (YYYY-MM-DD) of a conventionally named record, or undefined (DECISIONS 1). */
export function archiveDateOf(id: string): string | undefined {
  const m = CONVENTIONAL_ID.exec(id);
  if (!m) return undefined;
  const [, y, mo, d] = m;
  // Reject dates that do not exist (2026-02-30, 2026-02-29): worked out, not by a Date made and printed for each
  // record (100,000 of them took 0.1 s of the site build's main thread). The proleptic Gregorian calendar, as Date's.
  const year = Number(y);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const month = Number(mo);
  const length = month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
  const day = Number(d);
  return length !== undefined && day >= 1 && day <= length ? `${y}-${mo}-${d}` : undefined;
}

/** The days of each month, February's outside leap years. */
const MONTH_DAYS: readonly number[] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** DECISIONS 1: a README.md may sit in the archive beside the records (at any depth, our choice). */
export function isArchiveReadme(path: string): boolean {
  return path === 'README.md' || path.endsWith('/README.md');
}

/** The sequence number of a conventionally named record file (a path or a file name), else undefined. */
export function sequenceOf(path: string): number | undefined {
  if (!path.endsWith('.json')) return undefined;
  const m = CONVENTIONAL_ID.exec(recordIdOf(path));
  return m ? Number(m[4]) : undefined;
}

/** The highest sequence number among conventionally named records in these paths (0 when there is none). */
export function highestSequence(paths: Iterable<string>): number {
  let max = 0;
  for (const path of paths) max = Math.max(max, sequenceOf(path) ?? 0);
  return max;
}

/** The archive path of record number `sequence` archived on `day` (YYYY-MM-DD): `<year>/echo-<day>-<NNNNNN>.json`. */
export function recordPathFor(day: string, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > 999_999) {
    throw new RangeError(`the archive has used every six-digit sequence number (next would be ${sequence})`);
  }
  return `${day.slice(0, 4)}/echo-${day}-${String(sequence).padStart(6, '0')}.json`;
}

/**
 * The archive paths of the next `count` records archived on `date`, given the paths already in the archive:
 * `<year>/echo-<date>-<sequence>.json`, the sequence numbers following the highest conventional one (DECISIONS 1).
 * (`npm run new` claims its number against concurrent runs: archive/numbering.ts.)
 */
export function nextConventionalPaths(paths: Iterable<string>, date: Date, count = 1): string[] {
  const max = highestSequence(paths);
  if (max + count > 999_999) throw new Error('the archive has used every six-digit sequence number');
  const day = date.toISOString().slice(0, 10);
  return Array.from({ length: count }, (_, i) => recordPathFor(day, max + 1 + i));
}
