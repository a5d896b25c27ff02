/**
 * Records for rule tests: one shared valid base record (tests/fixtures/records/valid-echo.json), cloned and
 * patched by JSON pointer, so each case shows only what differs from a known-good record.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRecord } from '../../src/core/archive/check-record.ts';
import type { Diagnostic } from '../../src/core/diagnostics/diagnostic.ts';
import { locateFindings } from '../../src/core/diagnostics/locate.ts';
import type { ArchiveLookup, ArchiveRecord, JsonObject } from '../../src/core/rules/rule.ts';

export const TESTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(TESTS_DIR, '..');
export const FIXTURES_DIR = resolve(TESTS_DIR, 'fixtures');

const BASE_TEXT = readFileSync(resolve(FIXTURES_DIR, 'records/valid-echo.json'), 'utf8');

/** A fresh deep copy of the valid base record. */
export function validEcho(): JsonObject {
  return JSON.parse(BASE_TEXT) as JsonObject;
}

/** Patch value that deletes the member at its pointer. */
export const REMOVE: unique symbol = Symbol('remove');

function unescapeToken(t: string): string {
  return t.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * The base record (or `base`) with changes applied: keys are JSON pointers, values the new JSON value or REMOVE.
 * Missing intermediate objects are created. Changes apply in order.
 */
export function echoWith(changes: Record<string, unknown>, base: JsonObject = validEcho()): JsonObject {
  const record = structuredClone(base);
  for (const [pointer, value] of Object.entries(changes)) {
    if (!pointer.startsWith('/')) throw new Error(`patch key must be a JSON pointer: ${pointer}`);
    const tokens = pointer.slice(1).split('/').map(unescapeToken);
    const last = tokens.pop()!;
    let node: any = record;
    for (const t of tokens) {
      if (node[t] === undefined) node[t] = {};
      node = node[t];
    }
    if (value === REMOVE) {
      if (Array.isArray(node)) node.splice(Number(last), 1);
      else delete node[last];
    } else {
      node[last] = structuredClone(value);
    }
  }
  return record;
}

/** The base record's own text layout, as a contributor would write it (2-space indentation). */
export function recordText(record: unknown): string {
  return JSON.stringify(record, null, 2) + '\n';
}

export interface JudgeOptions {
  /** Archive path of the judged record. */
  path?: string;
  /** Other files of the archive: path → record object, or `null` for a file that is there but unreadable. */
  others?: Record<string, JsonObject | null>;
}

/** Schema + every record rule on one record, placed in its 2-space JSON text: what validateArchive reports for it. */
export function judge(record: JsonObject, { path = 'echo-2026-05-01-000001.json', others = {} }: JudgeOptions = {}): Diagnostic[] {
  const file: ArchiveRecord = { path, id: path.replace(/^.*\//, '').replace(/\.json$/, ''), record };
  const archive: ArchiveLookup = {
    recordAt(p) {
      if (p === path) return file;
      if (!(p in others)) return undefined;
      const other = others[p];
      return { path: p, id: p.replace(/^.*\//, '').replace(/\.json$/, ''), ...(other ? { record: other } : {}) };
    },
  };
  return locateFindings(checkRecord(record, file, archive), recordText(record));
}

export function errors(diags: readonly Diagnostic[]): Diagnostic[] {
  return diags.filter((d) => d.severity === 'error');
}

export function ofRule(diags: readonly Diagnostic[], rule: string): Diagnostic[] {
  return diags.filter((d) => d.rule === rule);
}

export function otherThan(diags: readonly Diagnostic[], rule: string): Diagnostic[] {
  return diags.filter((d) => d.rule !== rule);
}

/** 1-based line of the first line of `text` that contains `needle` (to check positions independently). */
export function lineOf(text: string, needle: string, from = 1): number {
  const lines = text.split('\n');
  for (let i = from - 1; i < lines.length; i++) if (lines[i]!.includes(needle)) return i + 1;
  throw new Error(`"${needle}" not found`);
}

/** Every object key in `value`, at every depth (array indexes are not keys). */
export function keysOf(value: unknown, found: string[] = []): string[] {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (!Array.isArray(value)) found.push(k);
      keysOf(v, found);
    }
  }
  return found;
}

/** An echo with a verification report that links the report record at `path` (DECISIONS 8), with its builder block. */
export const reportEcho = (path: string, changes: Record<string, unknown> = {}) =>
  echoWith({
    '/record_kind': 'echo_v3_with_verification_report',
    '/linked_verification_report': { schema_version: 'v3', path },
    '/generated_by': {
      builder_version: '1.0.0',
      claim_gate_output: 'none',
      evidence_input: 'evidence.json',
      generated_at_utc: '2026-05-01T00:00:00Z',
      validation_command: 'validate',
      validation_result: 'PASS',
    },
    ...changes,
  });
