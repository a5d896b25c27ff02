/** Sequence numbers of new records: the highest number + 1 over every year and folder, gaps kept, concurrent runs apart. */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNextRecord } from '../../src/core/archive/numbering.ts';
import { highestSequence, recordPathFor } from '../../src/core/archive/paths.ts';
import { tempArchives } from '../helpers/archive.ts';
import { NODE } from '../helpers/cli.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const makeArchive = tempArchives();
const NEW_CLI = join(REPO_ROOT, 'src/cli/new.ts');

function allFiles(dir: string, base = ''): string[] {
  return readdirSync(join(dir, base), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allFiles(dir, `${base}${e.name}/`) : [`${base}${e.name}`],
  );
}

describe('highestSequence', () => {
  it('is 0 for an archive without conventional names', () => {
    expect(highestSequence(['README.md', 'odd-name.json', 'echo-2026-01-01-12.json'])).toBe(0);
  });

  it('takes the highest number across years and folders, and never fills a gap', () => {
    expect(highestSequence(['2025/echo-2025-12-30-000007.json', '2026/echo-2026-01-02-000003.json', 'reports/v3/echo-2026-02-01-000005.json'])).toBe(7);
  });
});

describe('recordPathFor', () => {
  it('files the record under the year of its date, the number in six digits', () => {
    expect(recordPathFor('2027-03-04', 42)).toBe('2027/echo-2027-03-04-000042.json');
  });

  it('refuses numbers beyond six digits', () => {
    expect(() => recordPathFor('2027-03-04', 1_000_000)).toThrow(/every six-digit sequence number/);
  });
});

describe('createNextRecord', () => {
  it('writes the next number after a gap and across years, under the year of the date', () => {
    const root = makeArchive({
      '2025/echo-2025-06-01-000001.json': '{}',
      '2025/echo-2025-12-30-000004.json': '{}',
      '2026/echo-2026-01-02-000002.json': '{}',
    });
    const created = createNextRecord(root, '2026-03-01', () => 'text\n');
    expect(created).toEqual({ path: '2026/echo-2026-03-01-000005.json', sequence: 5 });
    expect(readFileSync(join(root, created.path), 'utf8')).toBe('text\n');
    expect(createNextRecord(root, '2027-01-01', () => '{}').path).toBe('2027/echo-2027-01-01-000006.json');
  });

  it('starts at 1 in an empty archive', () => {
    expect(createNextRecord(makeArchive({}), '2026-01-01', () => '{}').path).toBe('2026/echo-2026-01-01-000001.json');
  });

  it('moves past a number another run has claimed, and leaves no claim behind', () => {
    const root = makeArchive({ '2026/echo-2026-01-02-000002.json': '{}' });
    writeFileSync(join(root, '.new-record-000003.claim'), '');
    expect(createNextRecord(root, '2026-01-03', () => '{}').path).toBe('2026/echo-2026-01-03-000004.json');
    expect(allFiles(root).sort()).toEqual(['.new-record-000003.claim', '2026/echo-2026-01-02-000002.json', '2026/echo-2026-01-03-000004.json']);
  });

  it('takes over a claim left by a run that died long ago', () => {
    const root = makeArchive({});
    const stale = join(root, '.new-record-000001.claim');
    writeFileSync(stale, '');
    utimesSync(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    expect(createNextRecord(root, '2026-01-03', () => '{}').path).toBe('2026/echo-2026-01-03-000001.json');
    expect(allFiles(root)).toEqual(['2026/echo-2026-01-03-000001.json']);
  });

  it('writes nothing and frees the number when the text cannot be made', () => {
    const root = makeArchive({});
    expect(() =>
      createNextRecord(root, '2026-01-03', () => {
        throw new Error('invalid');
      }),
    ).toThrow('invalid');
    expect(allFiles(root)).toEqual([]);
    expect(createNextRecord(root, '2026-01-03', () => '{}').sequence).toBe(1);
  });

  it('gives concurrent runs of npm run new distinct numbers, and replaces nothing', async () => {
    const root = makeArchive({ '2026/echo-2026-01-02-000007.json': '{}' });
    const runs = 6;
    const results = await Promise.all(
      Array.from({ length: runs }, (_, i) =>
        new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
          execFile(NODE, [NEW_CLI, '--root', root, '--date', `2026-02-0${i + 1}`], (err, stdout, stderr) =>
            done({ code: err ? Number(err.code) : 0, stdout, stderr }),
          );
        }),
      ),
    );
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    const files = allFiles(root).filter((p) => p !== '2026/echo-2026-01-02-000007.json');
    expect(files).toHaveLength(runs);
    const numbers = files.map((p) => Number(/-(\d{6})\.json$/.exec(p)![1])).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(runs);
    expect(numbers[0]).toBe(8);
    expect(allFiles(root).some((p) => p.includes('.claim'))).toBe(false);
  });
});
