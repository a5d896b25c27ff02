import { describe, expect, it } from 'vitest';
import { validateArchive } from '../../../src/core/archive/validate-archive.ts';
import { duplicateId } from '../../../src/core/rules/file/duplicate-id.ts';
import { tempArchives } from '../../helpers/archive.ts';
import { validEcho } from '../../helpers/records.ts';

const RULE = 'file/duplicate-id';
const makeArchive = tempArchives();

describe(RULE, () => {
  it('is the module of that id', () => expect(duplicateId.id).toBe(RULE));

  it('passes distinct ids, even when names share a prefix or differ only in folder depth', async () => {
    const root = makeArchive({
      'a/echo-2026-05-01-000001.json': validEcho(),
      'a/echo-2026-05-01-000002.json': validEcho(),
      'b/echo-2026-05-01-0000011.json': validEcho(),
    });
    const report = await validateArchive(root);
    expect(report.files.flatMap((f) => f.diagnostics).filter((d) => d.rule === RULE)).toEqual([]);
  });

  it('flags every file that shares an id, across folders, naming the others', async () => {
    const root = makeArchive({
      'echoes/2026/echo-2026-05-01-000001.json': validEcho(),
      'reports/echo-2026-05-01-000001.json': validEcho(),
      'echo-2026-05-01-000001.json': validEcho(),
      'echo-2026-05-01-000002.json': validEcho(),
    });
    const report = await validateArchive(root);
    const byPath = Object.fromEntries(report.files.map((f) => [f.path, f]));
    expect(byPath['echo-2026-05-01-000002.json']!.diagnostics).toEqual([]);
    const paths = ['echo-2026-05-01-000001.json', 'echoes/2026/echo-2026-05-01-000001.json', 'reports/echo-2026-05-01-000001.json'];
    for (const path of paths) {
      const f = byPath[path]!;
      expect(f.valid).toBe(false);
      expect(f.diagnostics).toHaveLength(1);
      const d = f.diagnostics[0]!;
      expect(d).toMatchObject({ rule: RULE, severity: 'error', pointer: '', line: 1, column: 1 });
      const m = /^the id "echo-2026-05-01-000001" is also used by (.*); ids must be unique across the archive$/.exec(d.message);
      expect(m).not.toBeNull();
      expect(m![1]!.split(', ').sort()).toEqual(paths.filter((p) => p !== path).sort());
      expect(d.hint).toMatch(/next free sequence number/);
    }
    expect(report.summary).toMatchObject({ files: 4, valid: 1, invalid: 3, errors: 3 });
  });

  it('compares ids of .json files only', async () => {
    const root = makeArchive({ 'echo-2026-05-01-000001.json': validEcho(), 'echo-2026-05-01-000001.txt': 'x' });
    const report = await validateArchive(root);
    expect(report.files.flatMap((f) => f.diagnostics).map((d) => d.rule)).toEqual(['file/not-json']);
  });

  it('also applies to files that are not readable records', async () => {
    const root = makeArchive({ 'a/echo-x.json': '[]', 'b/echo-x.json': 'not json' });
    const report = await validateArchive(root);
    for (const f of report.files) expect(f.diagnostics.map((d) => d.rule)).toContain(RULE);
  });
});
