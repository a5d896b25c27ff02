/**
 * The rules the published Echo v3 schema carries (DECISIONS 21: spec 2.1 rules 1–8, section 3 rule 1) are sub-schemas
 * marked `"$comment": "rule <id>"`. Their condition lives there once, so that any JSON Schema validator given the
 * published schemas reaches the archive's verdict; this module tells which of Ajv's errors came from which rule, so
 * that the rule's module (src/core/rules/) can say it in plain words under its stable id.
 */
import type { ErrorObject } from 'ajv';
import { ECHO_RECORD_SCHEMA_ID, schemaDocument, type SchemaDocument } from './documents.ts';

const RULE_COMMENT = /^rule (\S+)$/;

/** The rule id a schema node is marked with, if any. */
function ruleMark(node: unknown): string | undefined {
  const comment = (node as { $comment?: unknown } | null)?.$comment;
  return typeof comment === 'string' ? RULE_COMMENT.exec(comment)?.[1] : undefined;
}

function unescapeToken(token: string): string {
  let t = token;
  try {
    t = decodeURIComponent(token);
  } catch {
    // not URI-encoded
  }
  return t.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * The rule whose sub-schema raised `error`: the innermost rule mark on the way down `error.schemaPath` (which is
 * `[document id]#/pointer`; no id means `rootId`, the document validated). A path that leaves the document (a
 * recursive sub-schema Ajv compiled on its own) is no rule's: such errors are umbrellas whose detail has its own path.
 */
export function ruleOfError(error: ErrorObject, rootId: string = ECHO_RECORD_SCHEMA_ID): string | undefined {
  const hash = error.schemaPath.indexOf('#');
  const docId = hash > 0 ? error.schemaPath.slice(0, hash) : rootId;
  let node: unknown = schemaDocument(docId);
  let rule: string | undefined = ruleMark(node);
  for (const token of error.schemaPath.slice(hash + 2).split('/')) {
    if (node === null || typeof node !== 'object') return rule;
    node = (node as Record<string, unknown>)[unescapeToken(token)];
    rule = ruleMark(node) ?? rule;
  }
  return rule;
}

export interface SplitErrors {
  /** Errors of no rule: the translator says them as schema/… findings. */
  general: ErrorObject[];
  /** Each rule's errors, in Ajv's order. */
  byRule: Map<string, ErrorObject[]>;
}

/**
 * Ajv's errors, split into each rule's and the rest. Of a rule's errors only those that say something are kept: not
 * its `if` (the failing `then` says why), not a `type` guard, and nothing at a place whose value has the wrong type
 * (the schema/type finding there says it; comparing a wrong-typed value would only repeat it).
 */
export function splitRuleErrors(errors: readonly ErrorObject[], rootId: string = ECHO_RECORD_SCHEMA_ID): SplitErrors {
  const general: ErrorObject[] = [];
  const ruled: Array<[string, ErrorObject]> = [];
  for (const e of errors) {
    const rule = ruleOfError(e, rootId);
    if (rule === undefined) general.push(e);
    else ruled.push([rule, e]);
  }
  const wrongType = new Set(general.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const byRule = new Map<string, ErrorObject[]>();
  for (const [rule, e] of ruled) {
    if (e.keyword === 'if' || e.keyword === 'type' || wrongType.has(e.instancePath)) continue;
    const list = byRule.get(rule) ?? [];
    list.push(e);
    byRule.set(rule, list);
  }
  return { general, byRule };
}

/** Every rule id marked in a schema document, in document order (for the tests that pair marks with modules). */
export function markedRules(doc: SchemaDocument | undefined = schemaDocument(ECHO_RECORD_SCHEMA_ID)): string[] {
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const rule = ruleMark(node);
    if (rule !== undefined && !found.includes(rule)) found.push(rule);
    for (const child of Object.values(node)) visit(child);
  };
  visit(doc);
  return found;
}

/** The `$defs` entry of the Echo v3 schema marked with `rule`, as a reference Ajv resolves (`…#/$defs/name`). */
export function ruleSchemaRef(rule: string): string {
  const defs = (schemaDocument(ECHO_RECORD_SCHEMA_ID)?.$defs ?? {}) as Record<string, unknown>;
  const name = Object.keys(defs).find((k) => ruleMark(defs[k]) === rule);
  if (name === undefined) throw new Error(`no sub-schema of ${ECHO_RECORD_SCHEMA_ID} is marked "rule ${rule}"`);
  return `${ECHO_RECORD_SCHEMA_ID}#/$defs/${name}`;
}

/** The `$defs` entry itself (for rules that read their own lists from the schema, e.g. the extension-key words). */
export function ruleSchema(rule: string): Record<string, unknown> {
  const ref = ruleSchemaRef(rule);
  const defs = schemaDocument(ECHO_RECORD_SCHEMA_ID)!.$defs as Record<string, Record<string, unknown>>;
  return defs[ref.slice(ref.lastIndexOf('/') + 1)]!;
}
