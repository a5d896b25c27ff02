/**
 * Validation file by file (validateArchive with `onFile`, the site build's way): the same reports as validation of
 * the archive read up front (the CLI's way), on the project's records, the fixtures, the real-sample corpus and an
 * archive made of every archive-wide case; each file handed over whole, then let go.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateArchive, type FileReport, type ValidateOptions } from '../../src/core/archive/validate-archive.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { tempArchives } from '../helpers/archive.ts';
import { EVERY_CASE, findings } from '../helpers/archive-cases.ts';
import { FIXTURES_DIR, REPO_ROOT } from '../helpers/records.ts';

const makeArchive = tempArchives();

/** Validates both ways; the streamed run's hand-overs, and what its reports keep afterwards. */
async function bothWays(root: string, options: ValidateOptions = {}) {
  const upFront = await validateArchive(root, options);
  const handed: { path: string; record: boolean; bytes: boolean }[] = [];
  const streamed = await validateArchive(root, {
    ...options,
    onFile: (f: FileReport) => handed.push({ path: f.path, record: f.file.record !== undefined, bytes: f.file.bytes !== undefined }),
  });
  return { upFront, streamed, handed };
}


/**
 * What a hand-over holds while it is handed over: the file's bytes (copied: they are lent for the call), identity,
 * record and reading's findings, and its hash.
 */
function snapshot(f: FileReport): FileReport {
  const { bytes, identity, record, readFindings } = f.file;
  return { ...f, file: { path: f.file.path, id: f.file.id, size: f.file.size, bytes: bytes && Buffer.from(bytes), identity, record, readFindings }, sha256: f.sha256 ?? (bytes && sha256Hex(bytes)) };
}

describe('validateArchive file by file (onFile)', () => {
  it('reports every archive-wide case as the up-front validation does, each file handed over whole and then let go', async () => {
    const root = makeArchive(EVERY_CASE);
    const { upFront, streamed, handed } = await bothWays(root);
    expect(findings(streamed)).toEqual(findings(upFront));
    // The case list is not vacuous: linked reports (found, missing, mislabelled), duplicate ids and bad files are reported.
    const rules = new Set(upFront.files.flatMap((f) => f.diagnostics.map((d) => d.rule)));
    for (const rule of ['cross/linked-report', 'file/duplicate-id', 'file/not-json', 'file/too-large']) expect(rules).toContain(rule);
    expect(upFront.files.find((f) => f.path === 'b/echo-2026-05-02-000001.json')!.valid).toBe(true);
    expect(upFront.files.find((f) => f.path === 'b/echo-2026-05-02-000004.json')!.valid).toBe(false);

    expect(handed.map((h) => h.path)).toEqual(upFront.files.map((f) => f.path));
    expect(handed.find((h) => h.path === 'a/echo-2026-05-01-000001.json')).toEqual({ path: 'a/echo-2026-05-01-000001.json', record: true, bytes: true });
    // Afterwards no report holds a record or bytes (the up-front reports do: the markdown report reads them).
    expect(streamed.files.filter((f) => f.file.record !== undefined || f.file.bytes !== undefined)).toEqual([]);
    expect(upFront.files.filter((f) => f.file.record !== undefined).length).toBeGreaterThan(10);
  });

  it('with `only`, reports those files as the up-front validation does', async () => {
    const root = makeArchive(EVERY_CASE);
    const only = new Set(['b/echo-2026-05-02-000004.json', 'd/echo-2026-05-01-000001.json', 'd/notes.txt']);
    const { upFront, streamed, handed } = await bothWays(root, { only });
    expect(findings(streamed)).toEqual(findings(upFront));
    expect(handed.map((h) => h.path)).toEqual([...only]);
  });

  const roots: [string, string][] = [
    ['the project\'s records', resolve(REPO_ROOT, 'records')],
    ['the fixtures', resolve(FIXTURES_DIR, 'records')],
    ['the hostile fixtures', resolve(REPO_ROOT, 'tests/e2e/fixtures/hostile')],
    ['the real-sample corpus', resolve(REPO_ROOT, '../shared/corpus/real-sample/archive')],
  ];
  for (const [name, root] of roots) {
    it.skipIf(!existsSync(root))(`reports ${name} as the up-front validation does`, async () => {
      const { upFront, streamed } = await bothWays(root);
      expect(upFront.files.length).toBeGreaterThan(0);
      expect(findings(streamed)).toEqual(findings(upFront));
    });
  }

  // The same files read on two threads (src/core/archive/read-ahead.ts), from the first file on: the same findings,
  // files and hashes as read in turn on one.
  for (const [name, root] of [['every archive-wide case', ''], ...roots] as [string, string][]) {
    it.skipIf(root !== '' && !existsSync(root))(`reports ${name} the same when a thread reads ahead`, async () => {
      const at = root || makeArchive(EVERY_CASE);
      const inTurn: FileReport[] = [];
      const ahead: FileReport[] = [];
      const one = await validateArchive(at, { readAhead: { aheadFrom: Infinity }, onFile: (f) => inTurn.push(snapshot(f)) });
      const two = await validateArchive(at, { readAhead: { aheadFrom: 1 }, onFile: (f) => ahead.push(snapshot(f)) });
      expect(findings(two)).toEqual(findings(one));
      expect(ahead).toEqual(inTurn);
      expect(ahead.length).toBeGreaterThan(0);
      // Up front too (the command line's way).
      const upFront = await validateArchive(at, { readAhead: { aheadFrom: 1 } });
      expect(findings(upFront)).toEqual(findings(one));
    });
  }
  it('hands over a large archive\'s files read ahead in memory it reuses, each whole for its call, the same as read in turn', async () => {
    // 600 files: many times the chunks the thread may be ahead, so the memory it reads into is reused again and again.
    const valid = readFileSync(resolve(FIXTURES_DIR, 'records/valid-echo.json'));
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 600; i++) files[`2026/echo-2026-05-01-${String(i + 1).padStart(6, '0')}.json`] = Buffer.concat([valid.subarray(0, -2), Buffer.from(`${' '.repeat(i % 97)}}\n`)]);
    const at = makeArchive(files);
    const inTurn: FileReport[] = [];
    const ahead: FileReport[] = [];
    let shared = 0;
    await validateArchive(at, { readAhead: { aheadFrom: Infinity }, onFile: (f) => inTurn.push(snapshot(f)) });
    const two = await validateArchive(at, {
      readAhead: { aheadFrom: 1 },
      onFile: (f) => {
        if (f.file.bytes?.buffer instanceof SharedArrayBuffer) shared++;
        ahead.push(snapshot(f));
      },
    });
    expect(ahead).toEqual(inTurn);
    expect(two.summary.valid).toBe(600);
    // Most files came through the shared memory (the validation reads a few chunks itself while the thread starts).
    expect(shared).toBeGreaterThan(300);
  });
  if (!existsSync(roots[3]![1])) console.warn(`[streaming] the real-sample corpus is not at ${roots[3]![1]}: that case is skipped.`);
});
