import { describe, expect, it } from 'vitest';
import { validateArchive } from '../../../src/core/archive/validate-archive.ts';
import { MAX_RECORD_BYTES, tooLarge } from '../../../src/core/rules/file/too-large.ts';
import { tempArchives } from '../../helpers/archive.ts';
import { recordText, validEcho } from '../../helpers/records.ts';

const RULE = 'file/too-large';
const MiB = 1024 * 1024;
const makeArchive = tempArchives();

/** The valid base record padded with trailing whitespace to exactly `bytes` bytes (still valid JSON). */
function paddedRecord(bytes: number): string {
  const text = recordText(validEcho());
  return text + ' '.repeat(bytes - Buffer.byteLength(text));
}

describe(RULE, () => {
  it('is the module of that id, with a limit of 1 MiB (DECISIONS 2)', () => {
    expect(tooLarge.id).toBe(RULE);
    expect(MAX_RECORD_BYTES).toBe(MiB);
  });

  it('passes a record of exactly 1 MiB', async () => {
    const root = makeArchive({ 'echo-2026-05-01-000001.json': paddedRecord(MiB) });
    const [file] = (await validateArchive(root)).files;
    expect(file!.file.size).toBe(MiB);
    expect(file!.diagnostics).toEqual([]);
  });

  it.each([
    [MiB + 1, '1.00'],
    [Math.round(1.5 * MiB), '1.50'],
  ])('flags a record of %i bytes, and does not read it further', async (size, shown) => {
    const root = makeArchive({ 'echo-2026-05-01-000001.json': paddedRecord(size) });
    const report = await validateArchive(root);
    const [file] = report.files;
    expect(file!.valid).toBe(false);
    expect(file!.diagnostics).toHaveLength(1);
    expect(file!.diagnostics[0]).toMatchObject({ rule: RULE, severity: 'error', pointer: '', line: 1, column: 1 });
    expect(file!.diagnostics[0]!.message).toBe(`the file is ${shown} MiB; a record may be at most 1 MiB`);
    expect(file!.diagnostics[0]!.hint).toMatch(/Shorten the echo text|link to it/);
    expect(file!.file.record).toBeUndefined();
  });

  it('reports an oversized broken file once, for its size', async () => {
    const root = makeArchive({ 'echo-2026-05-01-000001.json': '{'.repeat(MiB + 10) });
    const [file] = (await validateArchive(root)).files;
    expect(file!.diagnostics.map((d) => d.rule)).toEqual([RULE]);
  });

  it('does not apply to README.md (not a record)', async () => {
    const root = makeArchive({ 'README.md': 'x'.repeat(MiB + 1) });
    const report = await validateArchive(root);
    expect(report.summary).toMatchObject({ errors: 0, warnings: 0 });
  });
});
