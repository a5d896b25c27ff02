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
  const day = `${y}-${mo}-${d}`;
  let exists = days.get(day);
  if (exists === undefined) {
    const date = new Date(`${day}T00:00:00Z`);
    // Reject dates that do not exist (2026-02-30 would roll over into March).
    days.set(day, (exists = !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day)));
  }
  return exists ? day : undefined;
}

/**
 * Whether each day asked about exists: an archive's records share a few thousand days, and a build asks for every
 * record's (100,000 Dates made and printed took 0.1 s of the site build's main thread). One entry per day asked about.
 */
const days = new Map<string, boolean>();

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
