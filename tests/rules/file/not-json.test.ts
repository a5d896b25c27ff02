import { describe, expect, it } from 'vitest';
import { validateArchive } from '../../../src/core/archive/validate-archive.ts';
import { notJson } from '../../../src/core/rules/file/not-json.ts';
import { tempArchives } from '../../helpers/archive.ts';
import { validEcho } from '../../helpers/records.ts';

const RULE = 'file/not-json';
const makeArchive = tempArchives();

describe(RULE, () => {
  it('is the module of that id', () => expect(notJson.id).toBe(RULE));

  it('passes .json records and README.md files at any depth', async () => {
    const root = makeArchive({
      'README.md': '# Records\n',
      '2026/README.md': 'notes\n',
      '2026/echo-2026-05-01-000001.json': validEcho(),
    });
    const report = await validateArchive(root);
    // a README.md is allowed and is not a record: it is not reported at all
    expect(report.files.map((f) => f.path)).toEqual(['2026/echo-2026-05-01-000001.json']);
    expect(report.files.flatMap((f) => f.diagnostics)).toEqual([]);
    expect(report.summary).toEqual({ files: 1, valid: 1, invalid: 0, errors: 0, warnings: 0 });
    // but it is part of the archive that was read
    expect(report.archive.files.map((f) => f.path)).toContain('2026/README.md');
  });

  it('skips hidden files and folders entirely', async () => {
    const root = makeArchive({ '.DS_Store': 'x', '.git/config': 'x', 'echo-2026-05-01-000001.json': validEcho() });
    const report = await validateArchive(root);
    expect(report.files.map((f) => f.path)).toEqual(['echo-2026-05-01-000001.json']);
  });

  it.each([
    ['notes.txt', 'notes.txt', /Move the file out of the records folder/],
    ['2026/drafts/echo.yaml', 'echo.yaml', /Move the file out/],
    ['2026/echo-2026-05-01-000002.JSON', 'echo-2026-05-01-000002.JSON', /ends in lowercase "\.json"/],
    ['docs/README.markdown', 'README.markdown', /Move the file out/],
    ['Makefile', 'Makefile', /save the record as a \.json file/],
  ])('flags %s', async (path, name, hint) => {
    const root = makeArchive({ [path]: '{"a": 1}', 'echo-2026-05-01-000001.json': validEcho() });
    const report = await validateArchive(root);
    const file = report.files.find((f) => f.path === path)!;
    expect(file.valid).toBe(false);
    // not parsed as a record: this is its only diagnostic
    expect(file.diagnostics).toHaveLength(1);
    expect(file.diagnostics[0]).toMatchObject({ rule: RULE, severity: 'error', pointer: '', line: 1, column: 1 });
    expect(file.diagnostics[0]!.message).toBe(`"${name}" is not a record: only .json files (and README.md) belong in the archive`);
    expect(file.diagnostics[0]!.hint).toMatch(hint);
    expect(report.summary).toMatchObject({ files: 2, valid: 1, invalid: 1, errors: 1 });
  });
});
