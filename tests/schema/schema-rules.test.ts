/**
 * The rules the schema carries (src/core/schema/schema-rules.ts): every rule marked in the published schema has its
 * module among the record rules and every schema rule module has its mark, and the schema's forms of rule 7 and of
 * section 3 rule 1 mean exactly what the rules say, for any key or text.
 */
import fc from 'fast-check';
import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { recordRules } from '../../src/core/rules/index.ts';
import { isSchemaRule } from '../../src/core/rules/rule.ts';
import { FORBIDDEN_EXTENSION_WORDS, forbiddenWordsIn } from '../../src/core/rules/cross/extensions-keys.ts';
import { markedRules, ruleOfError, ruleSchemaRef, splitRuleErrors } from '../../src/core/schema/schema-rules.ts';
import { echoWith, judge, ofRule } from '../helpers/records.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

const error = (schemaPath: string, keyword = 'const', instancePath = ''): ErrorObject =>
  ({ keyword, schemaPath, instancePath, params: {} }) as ErrorObject;

describe('rules marked in the Echo v3 schema', () => {
  it('are exactly the schema rules among the record rules, and there are the nine of DECISIONS 21 and the guardian proof rule (DECISIONS 24)', () => {
    const modules = recordRules.filter(isSchemaRule).map((r) => r.id);
    expect([...markedRules()].sort()).toEqual([...modules].sort());
    expect(modules).toHaveLength(10);
  });

  it('each has a $defs entry Ajv can reference', () => {
    for (const id of markedRules()) expect(ruleSchemaRef(id)).toMatch(/^\/api\/echo-record-schema\.v3\.json#\/\$defs\/[a-z0-9_]+$/);
    expect(() => ruleSchemaRef('cross/no-such-rule')).toThrow(/no sub-schema/);
  });

  it('an error is the rule whose marked sub-schema it came from, with or without the document in its path', () => {
    expect(ruleOfError(error('#/$defs/c0_assessment/then/properties/assessment_state/const'))).toBe('cross/c0-assessment');
    expect(ruleOfError(error('/api/echo-record-schema.v3.json#/$defs/unknown_agency/then/properties/archive_status/not', 'not'))).toBe('cross/unknown-agency');
    expect(ruleOfError(error('#/$defs/extension_key/allOf/3/not', 'not'))).toBe('cross/extensions-keys');
    expect(ruleOfError(error('#/properties/assessment_state/enum', 'enum'))).toBeUndefined();
    expect(ruleOfError(error('#/then/propertyNames', 'propertyNames'))).toBeUndefined(); // a recursive sub-schema's umbrella
  });

  it("drops a rule's if and type guards, and its errors where the value has the wrong type", () => {
    const { general, byRule } = splitRuleErrors([
      error('#/properties/assessment_state/type', 'type', '/assessment_state'),
      error('#/$defs/c0_assessment/then/properties/assessment_state/const', 'const', '/assessment_state'),
      error('#/$defs/c0_assessment/if', 'if'),
      error('#/$defs/superseded_reason/then/properties/superseded_reason/type', 'type', '/superseded_reason'),
      error('#/$defs/superseded_reason/then/required', 'required'),
    ]);
    expect(general.map((e) => e.keyword)).toEqual(['type']);
    expect([...byRule.keys()]).toEqual(['state/superseded-reason']);
    expect(byRule.get('state/superseded-reason')!.map((e) => e.keyword)).toEqual(['required']);
  });
});

describe("the schema's forms mean what the rules say", () => {
  it('rule 7: a key holds a forbidden word exactly when its lower-case form contains it (any Unicode text)', () => {
    const key = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.tuple(fc.string(), fc.constantFrom(...FORBIDDEN_EXTENSION_WORDS), fc.string(), fc.boolean()).map(([a, w, b, upper]) => a + (upper ? w.toUpperCase() : w) + b),
    );
    fc.assert(
      fc.property(key, (k) => {
        const lower = k.toLowerCase();
        expect(forbiddenWordsIn(k)).toEqual(FORBIDDEN_EXTENSION_WORDS.filter((w) => lower.includes(w)));
      }),
      { numRuns: RUNS },
    );
  });

  it('rule 7 through the validator: such a key anywhere in extensions is one finding, other keys none', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('/extensions/', '/extensions/review_notes/', '/extensions/review_notes/tags/1/'), (k, at) => {
        const found = ofRule(judge(echoWith({ [`${at}${k.replaceAll('~', '~0').replaceAll('/', '~1')}`]: 1 })), 'cross/extensions-keys');
        expect(found).toHaveLength(forbiddenWordsIn(k).length > 0 ? 1 : 0);
      }),
      { numRuns: RUNS },
    );
  });

  it('section 3 rule 1: superseded_reason is blank exactly when trim() leaves nothing', () => {
    const text = fc.oneof(fc.string(), fc.stringMatching(/^[\s\u00a0\u2000-\u200b\u2028\u2029\u3000\ufeff]*$/));
    fc.assert(
      fc.property(text, (reason) => {
        const found = ofRule(judge(echoWith({ '/archive_status': 'superseded', '/superseded_reason': reason })), 'state/superseded-reason');
        expect(found).toHaveLength(reason.trim() === '' ? 1 : 0);
      }),
      { numRuns: RUNS },
    );
  });
});
