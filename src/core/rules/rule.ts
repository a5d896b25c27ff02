/**
 * What a rule is. Record rules look at one parsed record (and may look up other records of the archive);
 * archive rules look at the set of files. Each lives in its own module with a stable id; `index.ts` lists them.
 */
import type { ErrorObject } from 'ajv';
import type { Finding } from '../diagnostics/diagnostic.ts';

export type JsonObject = Record<string, unknown>;

export interface ArchiveRecord {
  /** Path from the archive root, forward slashes, e.g. `echoes/2026/echo-2026-05-02-000008.json`. */
  path: string;
  /** File name without `.json` (DECISIONS 1). */
  id: string;
  /** The parsed record when the file is readable JSON with an object at the top level. */
  record?: JsonObject;
}

export interface ArchiveLookup {
  /** The record file at a path from the archive root (no leading slash), or undefined when there is none. */
  recordAt(path: string): ArchiveRecord | undefined;
}

export interface RecordContext {
  record: JsonObject;
  file: ArchiveRecord;
  archive: ArchiveLookup;
}

export interface RecordRule {
  id: string;
  /** What the rule demands and where that comes from, in one line (shown in docs). */
  summary: string;
  check(ctx: RecordContext): Finding[];
}

/**
 * A rule whose condition is part of the published Echo v3 schema (DECISIONS 21), in the sub-schema marked
 * `"$comment": "rule <id>"`, so that any JSON Schema validator reaches the same verdict. Its module holds no second
 * copy of the condition: it only says the errors that sub-schema raised in plain words (src/core/schema/schema-rules.ts
 * tells which errors are whose).
 */
export interface SchemaRule {
  id: string;
  summary: string;
  /** Findings for the errors the rule's sub-schema raised on `record` (Ajv's verbose errors: `data` is the value). */
  explain(errors: readonly ErrorObject[], record: JsonObject): Finding[];
}

export function isSchemaRule(rule: RecordRule | SchemaRule): rule is SchemaRule {
  return 'explain' in rule;
}

export interface ArchiveFile {
  path: string;
  /** Size in bytes. */
  size: number;
}

export interface ArchiveRule {
  id: string;
  summary: string;
  /**
   * A file's findings depend on that file alone (not on the others): checking some files needs only those, and each
   * is checked when it is read. A rule without it sees the whole listing before files are read (validate-archive.ts
   * streams them), so it may judge paths only: `size` is 0 for a file not read yet.
   */
  perFile?: true;
  /** Findings keyed by file path. */
  check(files: readonly ArchiveFile[]): Map<string, Finding[]>;
}

/** Shorthand for an error finding of `rule`. */
export function violation(rule: string, pointer: string, message: string, hint: string, at?: 'key' | 'value'): Finding {
  return { rule, severity: 'error', message, hint, pointer, ...(at ? { at } : {}) };
}

export function asObject(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
