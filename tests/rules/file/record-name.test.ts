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

  it.each([
    ['echo-2026-04-11-000007\u200B.json', 'U+200B (ZERO WIDTH SPACE)'],
    ['echo-2026-04-11-\u202E700000.json', 'U+202E (RIGHT-TO-LEFT OVERRIDE)'],
    ['2026/echo-2026-04-11-000007\u2066x\u2069.json', 'U+2066 (LEFT-TO-RIGHT ISOLATE), U+2069 (POP DIRECTIONAL ISOLATE)'],
    ['echo-2026-04-11-000007\uFEFF.json', 'U+FEFF (ZERO WIDTH NO-BREAK SPACE)'],
    ['echo-2026-04-11-000007\u200D\u200C.json', 'U+200D (ZERO WIDTH JOINER), U+200C (ZERO WIDTH NON-JOINER)'],
    ['echo-2026-04-11-00000\u00AD7.json', 'U+00AD (SOFT HYPHEN)'],
    ['echo-2026-04-11-000007\u0007.json', 'U+0007'],
    ['echo-2026-04-11-000007\u2028.json', 'U+2028'],
    ['2026\u200F/echo-2026-04-11-000007.json', 'U+200F (RIGHT-TO-LEFT MARK)'],
  ])('rejects %j: an invisible or direction-changing character in the path is an error', async (path, named) => {
    const root = makeArchive({ [path]: validEcho() });
    const report = await validateArchive(root);
    const [file] = report.files;
    expect(file!.valid).toBe(false);
    expect(file!.diagnostics).toHaveLength(1);
    const [d] = file!.diagnostics;
    expect(d).toMatchObject({ rule: RULE, severity: 'error', pointer: '', line: 1, column: 1 });
    // The message names each character and shows the path with the characters written out, never raw.
    expect(d!.message).toContain(named);
    expect(d!.message).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u00AD\u0007\u2028]/);
    expect(d!.message).toMatch(/\\u\{[0-9A-F]+\}/);
    expect(d!.hint).toMatch(/visible characters only/);
    expect(report.summary).toMatchObject({ valid: 0, invalid: 1, errors: 1, warnings: 0 });
  });

  it('accepts visible non-ASCII names (with the usual warning): only hidden characters are errors', async () => {
    const root = makeArchive({ '2026/écho-ثبت-记录.json': validEcho() });
    const [file] = (await validateArchive(root)).files;
    expect(file!.valid).toBe(true);
    expect(file!.diagnostics.map((d) => d.severity)).toEqual(['warning']);
  });

  it('does not apply to README.md or non-JSON files', async () => {
    const root = makeArchive({ 'README.md': '#\n', 'notes.txt': 'x' });
    const report = await validateArchive(root);
    expect(report.files.flatMap((f) => f.diagnostics).filter((d) => d.rule === RULE)).toEqual([]);
  });
});
