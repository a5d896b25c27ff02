/**
 * Limits: read from the one policy document (documents/record-chain-limits.json) and enforced by the core, so the
 * builder and the gateway refuse the same submissions.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkBodySize,
  checkLimits,
  checkSubmission,
  checkTextDepth,
  LIMIT_RULES,
  recordChainLimits,
  serializeSubmission,
  validateSubmissionText,
  type RecordChainLimits,
} from '../../src/core/record-chain/index.ts';
import { schemaErrors } from '../../src/core/schema/compile.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { propagationWith, record, submission, validate } from './helpers.ts';

const DOC = JSON.parse(readFileSync(resolve(REPO_ROOT, 'documents/record-chain-limits.json'), 'utf8')) as RecordChainLimits;

/** Small limits so each test shows one limit at work. */
function tight(changes: Partial<RecordChainLimits>): RecordChainLimits {
  return { ...recordChainLimits(), ...changes };
}

describe('the limits document', () => {
  it('is the one the core enforces, and fits its schema', () => {
    expect(recordChainLimits()).toEqual(DOC);
    expect(schemaErrors(DOC, '/api/record-chain-limits-schema.v1.json')).toEqual([]);
  });

  it('explains how each limit is counted', () => {
    for (const key of Object.keys(DOC).filter((k) => k.startsWith('max_'))) expect(DOC.counting[key], key).toBeTruthy();
  });

  it('leaves room for a real echo: every fixture is far inside the limits', () => {
    for (const t of ['echo', 'verification', 'propagation', 'correction', 'context_insufficient_notice'] as const) {
      expect(checkLimits(submission(t))).toEqual([]);
    }
  });
});

describe('enforcement', () => {
  it('body size: checked on the bytes, before anything is parsed', () => {
    const text = serializeSubmission(submission('echo'));
    const limits = tight({ max_body_bytes: Buffer.byteLength(text) - 1 });
    const result = validateSubmissionText(text, { limits });
    expect(result.diagnostics.map((d) => d.rule)).toEqual([LIMIT_RULES.bodySize]);
    expect(result.submissionSha256).toBeUndefined();
    expect(validateSubmissionText(text, { limits: tight({ max_body_bytes: Buffer.byteLength(text) }) }).valid).toBe(true);
    expect(checkBodySize(DOC.max_body_bytes + 1)?.rule).toBe(LIMIT_RULES.bodySize);
    expect(checkBodySize(DOC.max_body_bytes)).toBeUndefined();
    // Multi-byte text counts in bytes.
    const big = 'é'.repeat(DOC.max_body_bytes / 2 + 1);
    expect(validateSubmissionText(big).diagnostics.map((d) => d.rule)).toEqual([LIMIT_RULES.bodySize]);
  });

  it('one string: counted in code points, reported at the string', () => {
    const limits = tight({ max_string_chars: 100 });
    const at = (summary: string) =>
      checkLimits(propagationWith({ summary }), limits).filter((x) => x.rule === LIMIT_RULES.string && x.pointer === '/record/summary');
    const d = at('😀'.repeat(101)); // 202 UTF-16 code units, 101 code points
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain('101 characters');
    expect(at('😀'.repeat(100))).toEqual([]);
  });

  it('one array', () => {
    const sub = propagationWith({ not_checked: ['a', 'b', 'c', 'd'] });
    expect(checkLimits(sub, tight({ max_array_items: 3 })).map((f) => [f.rule, f.pointer])).toEqual([[LIMIT_RULES.array, '/record/not_checked']]);
    expect(checkLimits(sub, tight({ max_array_items: 4 }))).toEqual([]);
  });

  it('depth: the envelope is depth 1', () => {
    const sub = submission('echo'); // record.verification_claim.coverage_scope.covered is at depth 5
    expect(checkLimits(sub, tight({ max_json_depth: 5 }))).toEqual([]);
    const d = checkLimits(sub, tight({ max_json_depth: 4 }));
    expect(d.map((f) => [f.rule, f.pointer])).toEqual([[LIMIT_RULES.depth, '/record/verification_claim/coverage_scope/covered']]);
  });

  it('a deeply nested document is refused by depth alone, reported once, before anything recurses', () => {
    let nested: unknown = 'x';
    for (let i = 0; i < 100; i++) nested = { n: nested };
    const sub = { ...submission('echo'), record: { ...record('echo'), deep: nested } };
    const d = validate(sub).diagnostics;
    expect(d.map((x) => x.rule)).toEqual([LIMIT_RULES.depth]);
    expect(checkSubmission(sub).findings.map((x) => x.rule)).toEqual([LIMIT_RULES.depth]);
  });

  it('a hundred thousand levels within the size limit: a finding, not a stack overflow', () => {
    const n = 100_000;
    const text = '{"record":' + '['.repeat(n) + ']'.repeat(n) + '}';
    expect(Buffer.byteLength(text)).toBeLessThan(DOC.max_body_bytes);
    const result = validateSubmissionText(text);
    expect(result.diagnostics.map((x) => [x.rule, x.line, x.column])).toEqual([[LIMIT_RULES.depth, 1, 11 + DOC.max_json_depth - 1]]);
    let deep: unknown = 1;
    for (let i = 0; i < n; i++) deep = [deep];
    expect(checkSubmission({ record: deep }).findings.map((x) => x.rule)).toEqual([LIMIT_RULES.depth]);
    // Brackets inside strings do not count.
    expect(checkTextDepth(JSON.stringify({ a: '[[[[[[[[[[[[[[[[[[[[[[[[' }))).toBeUndefined();
  });

  it('members of one object, and member-name length', () => {
    const sub = submission('echo');
    expect(checkLimits(sub, tight({ max_object_members: 8 })).map((f) => f.pointer)).toContain('/record');
    const long = { ...sub, ['k'.repeat(200)]: 1 };
    expect(checkLimits(long).map((f) => [f.rule, f.at])).toEqual([[LIMIT_RULES.key, 'key']]);
  });

  it('total text', () => {
    const sub = propagationWith({ checked: Array.from({ length: 50 }, (_, i) => `item ${i} `.repeat(20)) });
    const d = checkLimits(sub, tight({ max_total_text_chars: 5000 }));
    expect(d.map((f) => [f.rule, f.pointer])).toEqual([[LIMIT_RULES.totalText, '']]);
  });

  it('a flood of violations is capped per limit', () => {
    const sub = propagationWith({ checked: Array.from({ length: 100 }, () => 'x'.repeat(100)) });
    expect(checkLimits(sub, tight({ max_string_chars: 64 })).filter((f) => f.rule === LIMIT_RULES.string)).toHaveLength(10);
  });
});
