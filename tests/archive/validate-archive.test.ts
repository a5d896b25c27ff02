/** The pipeline itself: reading the root, ordering, selection, placing findings in each file's text. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveRootError } from '../../src/core/archive/load-archive.ts';
import { archiveDateOf, nextConventionalPaths, recordIdOf, resolveArchiveLink } from '../../src/core/archive/paths.ts';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { tempArchives } from '../helpers/archive.ts';
import { echoWith, lineOf, recordText, validEcho } from '../helpers/records.ts';

const makeArchive = tempArchives();
const C0_BAD = echoWith({ '/context_depth': 'C0_homepage_only' });

function c0Position(text: string) {
  const line = lineOf(text, '"assessment_state"');
  return { line, column: text.split('\n')[line - 1]!.indexOf('"qualified_assessment"') + 1 };
}

describe('validateArchive', () => {
  it('rejects a root that does not exist with ArchiveRootError', async () => {
    const root = join(makeArchive({}), 'missing');
    await expect(validateArchive(root)).rejects.toBeInstanceOf(ArchiveRootError);
  });

  it('lists files in code-point order with forward-slash paths from the root', async () => {
    const root = makeArchive({
      'b/echo-2026-05-01-000003.json': validEcho(),
      'a/z/echo-2026-05-01-000002.json': validEcho(),
      'B/echo-2026-05-01-000004.json': validEcho(),
      'echo-2026-05-01-000001.json': validEcho(),
    });
    const report = await validateArchive(root);
    expect(report.files.map((f) => f.path)).toEqual([
      'B/echo-2026-05-01-000004.json',
      'a/z/echo-2026-05-01-000002.json',
      'b/echo-2026-05-01-000003.json',
      'echo-2026-05-01-000001.json',
    ]);
    expect(report.files.map((f) => f.id)).toEqual([
      'echo-2026-05-01-000004',
      'echo-2026-05-01-000002',
      'echo-2026-05-01-000003',
      'echo-2026-05-01-000001',
    ]);
  });

  it('collects every problem of every file before reporting (DECISIONS: all problems in one pass)', async () => {
    const root = makeArchive({
      'echo-2026-05-01-000001.json': C0_BAD,
      'echo-2026-05-01-000002.json': '{"a": 1,}',
      'notes.txt': 'x',
      'echo-2026-05-01-000003.json': validEcho(),
    });
    const report = await validateArchive(root);
    expect(report.summary).toEqual({ files: 4, valid: 1, invalid: 3, errors: 3, warnings: 0 });
    expect(report.files.map((f) => f.diagnostics.map((d) => d.rule))).toEqual([
      ['cross/c0-assessment'],
      ['json/syntax'],
      [],
      ['file/not-json'],
    ]);
  });

  it('places record findings at their line and column in the file as written', async () => {
    const text = recordText(C0_BAD);
    const root = makeArchive({ 'echo-2026-05-01-000001.json': text });
    const [file] = (await validateArchive(root)).files;
    expect(file!.diagnostics[0]).toMatchObject({ rule: 'cross/c0-assessment', ...c0Position(text) });
  });

  it('places findings in a file with invalid UTF-8 bytes inside a string', async () => {
    const text = recordText(C0_BAD);
    const bytes = Buffer.from(text.replace('"The fixture agent read', '"The fixture agent \u0000read'), 'utf8');
    bytes[bytes.indexOf(0)] = 0xff; // one Latin-1 byte in the echo text, below the assessment_state line
    const root = makeArchive({ 'echo-2026-05-01-000001.json': new Uint8Array(bytes) });
    const [file] = (await validateArchive(root)).files;
    expect(file!.diagnostics.map((d) => d.rule).sort()).toEqual(['cross/c0-assessment', 'json/encoding']);
    expect(file!.diagnostics.find((d) => d.rule === 'cross/c0-assessment')).toMatchObject(c0Position(text));
  });

  // Known gap (src/core/json/source-map.ts, reported to the lead): momoa does not parse text that starts with a
  // BOM, so every pointer-placed finding of such a file falls back to 1:1. When the source map reads past the
  // BOM (as strict-parse does), this passes: turn `it.fails` into `it`.
  it('places findings correctly in a file that starts with a BOM', async () => {
    const text = recordText(C0_BAD);
    const root = makeArchive({ 'echo-2026-05-01-000001.json': '\uFEFF' + text });
    const [file] = (await validateArchive(root)).files;
    expect(file!.diagnostics.map((d) => d.rule).sort()).toEqual(['cross/c0-assessment', 'json/bom']);
    // the BOM is one UTF-16 unit on line 1 only; assessment_state is further down
    expect(file!.diagnostics.find((d) => d.rule === 'cross/c0-assessment')).toMatchObject(c0Position(text));
  });

  it('only: reports the selected files, judged against the whole archive', async () => {
    const root = makeArchive({
      'a/echo-2026-05-01-000001.json': validEcho(),
      'b/echo-2026-05-01-000001.json': validEcho(),
      'echo-2026-05-01-000002.json': C0_BAD,
    });
    const report = await validateArchive(root, { only: new Set(['a/echo-2026-05-01-000001.json']) });
    expect(report.files.map((f) => f.path)).toEqual(['a/echo-2026-05-01-000001.json']);
    expect(report.files[0]!.diagnostics.map((d) => d.rule)).toEqual(['file/duplicate-id']);
    expect(report.summary).toEqual({ files: 1, valid: 0, invalid: 1, errors: 1, warnings: 0 });
  });
});

describe('archive paths', () => {
  it('recordIdOf is the file name without .json', () => {
    expect(recordIdOf('a/b/echo-2026-05-01-000001.json')).toBe('echo-2026-05-01-000001');
    expect(recordIdOf('x.json.json')).toBe('x.json');
    expect(recordIdOf('README.md')).toBe('README.md');
  });

  it('archiveDateOf accepts real dates only', () => {
    expect(archiveDateOf('echo-2024-02-29-000001')).toBe('2024-02-29');
    expect(archiveDateOf('echo-2023-02-29-000001')).toBeUndefined();
    expect(archiveDateOf('echo-2026-04-31-000001')).toBeUndefined();
    expect(archiveDateOf('echo-2026-05-01-000001-x')).toBeUndefined();
  });

  it('nextConventionalPaths follows the highest conventional sequence number of the whole archive', () => {
    const date = new Date('2026-11-24T06:00:00Z');
    const paths = ['2025/echo-2025-12-31-000041.json', '2026/echo-2026-01-02-000007.json', 'old/echo-2026-01-01-999998.md', 'other-name.json', 'README.md'];
    expect(nextConventionalPaths(paths, date, 2)).toEqual(['2026/echo-2026-11-24-000042.json', '2026/echo-2026-11-24-000043.json']);
    expect(nextConventionalPaths([], date)).toEqual(['2026/echo-2026-11-24-000001.json']);
    expect(() => nextConventionalPaths(['echo-2026-01-01-999999.json'], date)).toThrow(/every six-digit sequence number/);
  });

  it('resolveArchiveLink keeps links inside the root', () => {
    expect(resolveArchiveLink('/a/b.json')).toBe('a/b.json');
    expect(resolveArchiveLink('a/b.json')).toBe('a/b.json');
    for (const bad of ['', '/', '../a.json', 'a/../../b.json', 'a/./b.json', 'a//b.json', 'a\\b.json', 'https://x/y.json', 'C:/x.json', '//host/x.json']) {
      expect(resolveArchiveLink(bad), bad).toBeUndefined();
    }
  });
});
