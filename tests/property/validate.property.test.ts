/** The whole pipeline on generated input: it never throws, and every diagnostic is complete and placed. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import type { Diagnostic } from '../../src/core/diagnostics/diagnostic.ts';
import type { JsonObject } from '../../src/core/rules/rule.ts';
import { echoWith, judge, REMOVE, validEcho } from '../helpers/records.ts';

function complete(d: Diagnostic, text?: string): void {
  expect(d.rule).toMatch(/^(json|schema|cross|state|file)\/[a-z0-9-]+$/);
  expect(['error', 'warning']).toContain(d.severity);
  expect(typeof d.message === 'string' && d.message.length > 0).toBe(true);
  expect(typeof d.hint === 'string' && d.hint.length > 0).toBe(true);
  expect(typeof d.pointer).toBe('string');
  expect(d.pointer === '' || d.pointer.startsWith('/')).toBe(true);
  expect(Number.isInteger(d.line) && d.line >= 1).toBe(true);
  expect(Number.isInteger(d.column) && d.column >= 1).toBe(true);
  if (text !== undefined) expect(d.line).toBeLessThanOrEqual(text.split('\n').length);
  expect(d.message).not.toMatch(/undefined|\[object Object\]/);
}

/** Every pointer to a member or item of the base record. */
function pointersOf(value: unknown, pointer = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => {
    const here = `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    return [here, ...pointersOf(v, here)];
  });
}
const BASE_POINTERS = pointersOf(validEcho());

/** Values a contributor might plausibly write, and some they would not. */
const plausible = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('C0_homepage_only', 'A6_unknown', 'unsolicited_independent', 'accepted_independent_attestation', 'superseded', 'V2', 'V3',
    'human_directed', 'echo_v3_with_verification_report', 'legacy_record', true, false, '', [], {}),
);

describe('checkRecord on generated records', () => {
  it('arbitrary JSON objects: never throws; every diagnostic has rule, message, hint, line and column', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }), (record) => {
        const text = JSON.stringify(record, null, 2);
        const diags = judge(record as JsonObject);
        expect(diags.length).toBeGreaterThan(0); // nothing arbitrary is a valid record
        for (const d of diags) complete(d, text);
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary objects under the Echo v3 field names', () => {
    const fields = Object.keys(validEcho());
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...fields, 'extensions', 'authorship_proof', 'linked_verification_report'), plausible, { maxKeys: 12 }), (record) => {
        for (const d of judge(record as JsonObject)) complete(d, JSON.stringify(record, null, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('the valid base record with up to three members replaced or removed', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...BASE_POINTERS), fc.option(plausible, { nil: undefined })), { minLength: 1, maxLength: 3 }), (changes) => {
        let record = validEcho();
        for (const [pointer, value] of changes) {
          try {
            // later changes may address a member that an earlier one replaced by a scalar: then they are skipped
            record = echoWith({ [pointer]: value === undefined ? REMOVE : value }, record);
          } catch {
            /* skipped */
          }
        }
        const text = JSON.stringify(record, null, 2);
        for (const d of judge(record)) complete(d, text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('validateArchive on generated archives', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

  it('never throws, lists every file, and every diagnostic is complete', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
            fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })).map((v) => JSON.stringify(v, null, 2)),
            fc.string({ maxLength: 40 }),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        async (contents) => {
          const root = mkdtempSync(join(tmpdir(), 'echo-archive-prop-'));
          roots.push(root);
          contents.forEach((c, i) => writeFileSync(join(root, `echo-2026-05-01-${String(i).padStart(6, '0')}.json`), c));
          const report = await validateArchive(root);
          expect(report.files).toHaveLength(contents.length);
          for (const [i, f] of report.files.entries()) {
            expect(f.valid).toBe(!f.diagnostics.some((d) => d.severity === 'error'));
            for (const d of f.diagnostics) complete(d, contents[i]);
          }
          expect(report.summary.files).toBe(contents.length);
        },
      ),
      { numRuns: 40 },
    );
  });
});
