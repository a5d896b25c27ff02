/**
 * Fuzzing the archive validator as the CLI runs it (validateArchive over a copy of records/, one file replaced by
 * the fuzzed bytes, the report limited to that file): it never throws; an invalid file always gets at least one
 * complete, placed error diagnostic; a valid verdict has none; strict JSON never accepts what JSON.parse refuses;
 * and the verdict on a record does not depend on its layout (the same record re-written two-space is judged the
 * same). Runs: FUZZ_RUNS (see arbitraries.ts).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateArchive, type FileReport } from '../../src/core/archive/validate-archive.ts';
import type { JsonObject } from '../../src/core/rules/rule.ts';
import { judge, REPO_ROOT } from '../helpers/records.ts';
import {
  arbitraryBytes,
  arbitraryJsonText,
  expectComplete,
  fuzzParameters,
  fuzzTimeout,
  isPlainObject,
  keysOf,
  mutate,
  mutationArbitrary,
  plainParse,
  stringsOf,
  tokenSoup,
} from './arbitraries.ts';

const RECORDS = join(REPO_ROOT, 'records');
const SAMPLES = readdirSync(join(RECORDS, '2026'))
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => {
    const path = `2026/${name}`;
    const bytes = readFileSync(join(RECORDS, path));
    return { path, bytes, record: JSON.parse(bytes.toString('utf8')) as JsonObject };
  });
const OTHERS: Record<string, JsonObject> = Object.fromEntries(SAMPLES.map((s) => [s.path, s.record]));
const KEYS = [...new Set(SAMPLES.flatMap((s) => keysOf(s.record)))];
const VOCABULARY = [...new Set(SAMPLES.flatMap((s) => stringsOf(s.record)))];

const RUNS = 200;
/** A run reads and validates the 15-record archive: a few ms; the bound is generous for slow CI machines. */
const TIMEOUT = fuzzTimeout(RUNS, 40);

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'echo-archive-fuzz-'));
  cpSync(RECORDS, root, { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Replaces one archive file by `bytes`, validates as the CLI does (`validate FILE`), and puts the file back. */
async function validateAs(path: string, bytes: Uint8Array): Promise<FileReport> {
  const original = readFileSync(join(root, path));
  writeFileSync(join(root, path), bytes);
  try {
    const report = await validateArchive(root, { only: new Set([path]) });
    expect(report.files.map((f) => f.path)).toEqual([path]);
    return report.files[0]!;
  } finally {
    writeFileSync(join(root, path), original);
  }
}

/** (rule, severity, pointer) of every diagnostic, sorted: the verdict without positions or wording. */
function verdict(diagnostics: ReadonlyArray<{ rule: string; severity: string; pointer: string }>): string[] {
  return diagnostics.map((d) => `${d.severity} ${d.rule} ${d.pointer}`).sort();
}

/** Every property the validator must keep, whatever the bytes. */
function expectSound(file: FileReport, bytes: Uint8Array, path: string): void {
  const text = Buffer.from(bytes).toString('utf8');
  const errors = file.diagnostics.filter((d) => d.severity === 'error');
  expect(file.valid).toBe(errors.length === 0);
  for (const d of file.diagnostics) expectComplete(d, text);

  const plain = plainParse(bytes);
  // Strict JSON is stricter than JSON.parse: what JSON.parse refuses, or anything but an object, is invalid.
  if (!plain || !isPlainObject(plain.value)) {
    expect(file.valid).toBe(false);
    expect(errors.some((d) => d.rule.startsWith('json/'))).toBe(true);
    return;
  }
  const strictJson = !file.diagnostics.some((d) => d.rule.startsWith('json/'));
  if (file.valid) expect(strictJson).toBe(true);
  if (strictJson) {
    // Layout does not matter: the value re-written two-space is judged the same (file/ rules look at the file, not the value).
    const content = file.diagnostics.filter((d) => !d.rule.startsWith('file/'));
    expect(verdict(content)).toEqual(verdict(judge(plain.value as JsonObject, { path, others: OTHERS })));
  }
}

const samplePath = fc.constantFrom(...SAMPLES.map((s) => s.path));

describe('fuzz: the archive validator', () => {
  it('the samples are valid as they are (the base of the mutations)', async () => {
    for (const s of SAMPLES) {
      const file = await validateAs(s.path, s.bytes);
      expect(file.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
  });

  it(
    'arbitrary bytes, token soup and arbitrary JSON: never throws, every invalid file is explained in place',
    async () => {
      await fc.assert(
        fc.asyncProperty(samplePath, fc.oneof(arbitraryBytes, tokenSoup, arbitraryJsonText), async (path, bytes) => {
          const file = await validateAs(path, bytes);
          expectSound(file, bytes, path);
        }),
        fuzzParameters(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    'mutated valid records (members deleted, replaced, copied, inserted; truncated, flipped, spliced, duplicate keys)',
    async () => {
      const sample = fc.constantFrom(...SAMPLES);
      await fc.assert(
        fc.asyncProperty(sample, mutationArbitrary(KEYS, VOCABULARY), async (s, mutation) => {
          const bytes = mutate(s.record, mutation);
          const file = await validateAs(s.path, bytes);
          expectSound(file, bytes, s.path);
          // a duplicate key written into the text is always reported
          if (mutation.text.length === 1 && mutation.text[0]!.op === 'duplicate-key' && plainParse(bytes)) {
            expect(file.diagnostics.map((d) => d.rule)).toContain('json/duplicate-key');
          }
        }),
        fuzzParameters(RUNS),
      );
    },
    TIMEOUT,
  );
});
