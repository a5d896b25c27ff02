/**
 * Conformance with real Echo records: ../shared/corpus/real-sample/archive/ against its EXPECTED.json (verdict and
 * error reasons `${rule}: ${message}` per file). The corpus lives beside the repository, not in it; a plain clone
 * without it skips this file with a notice.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateArchive, type ArchiveReport } from '../../src/core/archive/validate-archive.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const SAMPLE = resolve(REPO_ROOT, '../shared/corpus/real-sample');
const ARCHIVE = join(SAMPLE, 'archive');
const EXPECTED_FILE = join(SAMPLE, 'EXPECTED.json');
const present = existsSync(ARCHIVE) && existsSync(EXPECTED_FILE);

if (!present) {
  console.warn(`[conformance] skipped: the real-sample corpus is not at ${SAMPLE} (it sits beside the repository, in ../shared).`);
}

interface Expected {
  valid: boolean;
  reasons: string[];
}

/** Every file under `dir`, as forward-slash paths relative to it (read independently of the validator). */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), base) : [relative(base, join(dir, e.name)).split('\\').join('/')],
  );
}

describe.skipIf(!present)('real-sample corpus', () => {
  let expected: Record<string, Expected>;
  let report: ArchiveReport;

  beforeAll(async () => {
    expected = JSON.parse(readFileSync(EXPECTED_FILE, 'utf8')) as Record<string, Expected>;
    report = await validateArchive(ARCHIVE);
  });

  it('EXPECTED.json has an entry for every file of the archive, and no other', () => {
    expect(Object.keys(expected).sort()).toEqual(walk(ARCHIVE).sort());
  });

  it('the validator reports every file that EXPECTED.json lists', () => {
    expect(report.files.map((f) => f.path).sort()).toEqual(Object.keys(expected).sort());
  });

  it('the corpus exercises both verdicts', () => {
    const verdicts = new Set(Object.values(expected).map((e) => e.valid));
    expect(verdicts).toEqual(new Set([true, false]));
  });

  it('every file: the same verdict and exactly the expected error reasons', () => {
    const mismatches: string[] = [];
    for (const [path, want] of Object.entries(expected)) {
      const file = report.files.find((f) => f.path === path);
      if (!file) {
        mismatches.push(`${path}: not reported`);
        continue;
      }
      const got = file.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule}: ${d.message}`);
      if (file.valid !== want.valid) mismatches.push(`${path}: valid is ${file.valid}, expected ${want.valid}`);
      const a = [...got].sort();
      const b = [...want.reasons].sort();
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        mismatches.push(`${path}:\n    got      ${JSON.stringify(a)}\n    expected ${JSON.stringify(b)}`);
      }
    }
    expect(mismatches, mismatches.join('\n')).toEqual([]);
  });

  it('the summary agrees with the expectations', () => {
    const entries = Object.values(expected);
    expect(report.summary.files).toBe(entries.length);
    expect(report.summary.valid).toBe(entries.filter((e) => e.valid).length);
    expect(report.summary.errors).toBe(entries.reduce((n, e) => n + e.reasons.length, 0));
  });
});
