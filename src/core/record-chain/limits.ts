/**
 * The size limits of a record-chain submission, from ONE policy document: `documents/record-chain-limits.json`
 * (published as /api/record-chain-limits.json, shape /api/record-chain-limits-schema.v1.json). The builder and the
 * gateway both enforce them through this module; nothing else hard-codes a limit.
 */
import limitsDocument from '../../../documents/record-chain-limits.json' with { type: 'json' };
import type { Finding } from '../diagnostics/diagnostic.ts';
import { childPointer, describePointer } from '../json/pointer.ts';
import { lineColumnAt } from '../json/strict-parse.ts';
import { schemaErrors } from '../schema/compile.ts';
import { codePoints } from './walk.ts';

export const LIMITS_SCHEMA_ID = '/api/record-chain-limits-schema.v1.json';
/** Public path of the limits document. */
export const LIMITS_DOCUMENT_PATH = '/api/record-chain-limits.json';

export interface RecordChainLimits {
  schema: 'service.record-chain-limits.v1';
  version: 'v1';
  purpose: string;
  /** Bytes of the submission file or request body as sent. */
  max_body_bytes: number;
  /** Nesting of objects and arrays; the envelope is depth 1. */
  max_json_depth: number;
  /** Code points of one string value. */
  max_string_chars: number;
  /** Code points of one member name. */
  max_key_chars: number;
  max_array_items: number;
  max_object_members: number;
  /** Code points of all strings (values and member names) together. */
  max_total_text_chars: number;
  /**
   * Per record_type (optional): code points of all strings (values and member names) of the record, the signed
   * content, together (docs/guardians.md: 8,000 guardian_application, 4,000 guardian_retirement, 6,000
   * classification_update). Types not listed have max_total_text_chars only.
   */
  max_record_text_chars_by_type?: Partial<Record<string, number>>;
  counting: Record<string, string>;
}

let checked: RecordChainLimits | undefined;

/** The limits policy in force (validated against its schema on first use; a broken document is a bug, thrown). */
export function recordChainLimits(): RecordChainLimits {
  if (!checked) {
    const errors = schemaErrors(limitsDocument, LIMITS_SCHEMA_ID);
    if (errors.length > 0) {
      throw new Error(`documents/record-chain-limits.json does not fit ${LIMITS_SCHEMA_ID}: ${errors.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
    }
    checked = limitsDocument as RecordChainLimits;
  }
  return checked;
}

/** Rule ids of the limit findings. */
export const LIMIT_RULES = {
  bodySize: 'chain/limit-body-size',
  depth: 'chain/limit-depth',
  string: 'chain/limit-string',
  key: 'chain/limit-key',
  array: 'chain/limit-array',
  object: 'chain/limit-object',
  totalText: 'chain/limit-total-text',
  recordText: 'chain/limit-record-text',
} as const;

/** A finding when `byteLength` exceeds max_body_bytes (callers check this before parsing; the gateway answers 413). */
export function checkBodySize(byteLength: number, limits: RecordChainLimits = recordChainLimits()): Finding | undefined {
  if (byteLength <= limits.max_body_bytes) return undefined;
  return {
    rule: LIMIT_RULES.bodySize,
    severity: 'error',
    message: `the submission is ${byteLength} bytes; the limit is ${limits.max_body_bytes} bytes (${LIMITS_DOCUMENT_PATH})`,
    hint: 'Shorten the longest texts: a record states what was understood or done, briefly; link to long material instead of pasting it.',
    pointer: '',
    line: 1,
    column: 1,
  };
}

/**
 * The nesting depth limit checked on the text itself, before parsing: a body within the size limit can still nest
 * a hundred thousand levels, which no recursive reader (the strict parser, the schema validator, the rules) should
 * be asked to walk. A linear scan of brackets outside strings; the finding is placed where the limit is crossed.
 */
export function checkTextDepth(text: string, limits: RecordChainLimits = recordChainLimits()): Finding | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      depth++;
      if (depth > limits.max_json_depth) {
        return {
          rule: LIMIT_RULES.depth,
          severity: 'error',
          message: `the submission is nested more than ${limits.max_json_depth} levels deep (${LIMITS_DOCUMENT_PATH})`,
          hint: 'Flatten the structure: record fields are at most a few levels deep.',
          pointer: '',
          ...lineColumnAt(text, i),
        };
      }
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return undefined;
}

/** At most this many findings per limit, so that a pathological document does not flood the report. */
const MAX_FINDINGS_PER_LIMIT = 10;

/**
 * Structural limits of a parsed submission: depth, string and member-name lengths, array and object sizes, and
 * the total text. Pointers are those of the offending values.
 */
export function checkLimits(value: unknown, limits: RecordChainLimits = recordChainLimits()): Finding[] {
  const out: Finding[] = [];
  const counts = new Map<string, number>();
  const report = (rule: string, pointer: string, message: string, hint: string, at?: 'key'): void => {
    const n = (counts.get(rule) ?? 0) + 1;
    counts.set(rule, n);
    if (n <= MAX_FINDINGS_PER_LIMIT) out.push({ rule, severity: 'error', message, hint, pointer, ...(at ? { at } : {}) });
  };
  let totalText = 0;
  /** Text inside /record (the signed content), for the per-type cap. */
  let recordText = 0;
  let depthReported = false;

  const visit = (node: unknown, pointer: string, depth: number): void => {
    const inRecord = pointer === '/record' || pointer.startsWith('/record/');
    if (typeof node === 'string') {
      const n = codePoints(node);
      totalText += n;
      if (inRecord) recordText += n;
      if (n > limits.max_string_chars) {
        report(
          LIMIT_RULES.string,
          pointer,
          `${describePointer(pointer)} has ${n} characters; one text may have at most ${limits.max_string_chars}`,
          'Shorten the text, or link to the long material instead of pasting it.',
        );
      }
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (depth > limits.max_json_depth) {
      if (!depthReported) {
        depthReported = true;
        report(
          LIMIT_RULES.depth,
          pointer,
          `${describePointer(pointer)} is nested ${depth} levels deep; the limit is ${limits.max_json_depth}`,
          'Flatten the structure: record fields are at most a few levels deep.',
        );
      }
      return;
    }
    if (Array.isArray(node)) {
      if (node.length > limits.max_array_items) {
        report(
          LIMIT_RULES.array,
          pointer,
          `${describePointer(pointer)} has ${node.length} items; a list may have at most ${limits.max_array_items}`,
          'Keep the most important items, or summarise them in fewer.',
        );
      }
      node.forEach((item, i) => visit(item, childPointer(pointer, i), depth + 1));
      return;
    }
    const entries = Object.entries(node);
    if (entries.length > limits.max_object_members) {
      report(
        LIMIT_RULES.object,
        pointer,
        `${describePointer(pointer)} has ${entries.length} fields; an object may have at most ${limits.max_object_members}`,
        'Remove fields: record objects have a fixed, small set of fields.',
      );
    }
    for (const [key, item] of entries) {
      const at = childPointer(pointer, key);
      const n = codePoints(key);
      totalText += n;
      if (inRecord) recordText += n;
      if (n > limits.max_key_chars) {
        report(
          LIMIT_RULES.key,
          at,
          `a field name of ${n} characters in ${describePointer(pointer)}; the limit is ${limits.max_key_chars}`,
          'Use the field names of the schema.',
          'key',
        );
      }
      visit(item, at, depth + 1);
    }
  };
  visit(value, '', 1);

  if (totalText > limits.max_total_text_chars) {
    report(
      LIMIT_RULES.totalText,
      '',
      `the submission holds ${totalText} characters of text; the limit is ${limits.max_total_text_chars}`,
      'Shorten the longest texts: a record states what was understood or done, briefly.',
    );
  }
  const recordType = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>).record_type : undefined;
  const typeCap = typeof recordType === 'string' ? limits.max_record_text_chars_by_type?.[recordType] : undefined;
  if (typeCap !== undefined && recordText > typeCap && !depthReported) {
    report(
      LIMIT_RULES.recordText,
      '/record',
      `the ${recordType} record holds ${recordText} characters of text; a ${recordType} may have at most ${typeCap} (${LIMITS_DOCUMENT_PATH})`,
      'Shorten the longest texts (the statement, reason or basis): say it briefly, and link to longer material instead of pasting it.',
    );
  }
  return out;
}
