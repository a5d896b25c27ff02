import { describe, expect, it } from 'vitest';
import { validateArchive } from '../../../src/core/archive/validate-archive.ts';
import { recordName } from '../../../src/core/rules/file/record-name.ts';
import { tempArchives } from '../../helpers/archive.ts';
import { validEcho } from '../../helpers/records.ts';

const RULE = 'file/record-name';
const makeArchive = tempArchives();

describe(RULE, () => {
  it('is the module of that id', () => expect(recordName.id).toBe(RULE));

  it.each(['echo-2026-05-01-000001.json', '2024/echo-2024-02-29-123456.json', 'a/b/c/echo-1999-12-31-000000.json'])(
    'passes the conventional name %s',
    async (path) => {
      const root = makeArchive({ [path]: validEcho() });
      const [file] = (await validateArchive(root)).files;
      expect(file!.diagnostics).toEqual([]);
    },
  );

  it.each([
    ['echo-119-xiaokuaizi-20260512.json', 'echo-119-xiaokuaizi-20260512'],
    ['2026/my-echo.json', 'my-echo'],
    ['echo-2026-02-30-000001.json', 'echo-2026-02-30-000001'], // no 30 February
    ['echo-2025-02-29-000001.json', 'echo-2025-02-29-000001'], // 2025 is not a leap year
    ['echo-2026-13-01-000001.json', 'echo-2026-13-01-000001'],
    ['echo-2026-05-01-00001.json', 'echo-2026-05-01-00001'], // five-digit sequence
    ['Echo-2026-05-01-000001.json', 'Echo-2026-05-01-000001'],
  ])('warns about %s, and the record stays valid', async (path, id) => {
    const root = makeArchive({ [path]: validEcho() });
    const report = await validateArchive(root);
    const [file] = report.files;
    expect(file!.id).toBe(id);
    expect(file!.valid).toBe(true);
    expect(file!.diagnostics).toHaveLength(1);
    expect(file!.diagnostics[0]).toMatchObject({ rule: RULE, severity: 'warning', pointer: '', line: 1, column: 1 });
    expect(file!.diagnostics[0]!.message).toBe(
      `"${id}" is not a conventional record name (echo-YYYY-MM-DD-NNNNNN), so the record has no archive date`,
    );
    expect(file!.diagnostics[0]!.hint).toMatch(/echo-2026-11-22-000001\.json/);
    expect(report.summary).toMatchObject({ valid: 1, invalid: 0, errors: 0, warnings: 1 });
  });

  it('does not apply to README.md or non-JSON files', async () => {
    const root = makeArchive({ 'README.md': '#\n', 'notes.txt': 'x' });
    const report = await validateArchive(root);
    expect(report.files.flatMap((f) => f.diagnostics).filter((d) => d.rule === RULE)).toEqual([]);
  });
});
