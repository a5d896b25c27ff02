/**
 * The rules of DECISIONS 21 live in the published schema; what a contributor reads about them must stay what it was
 * when they were TypeScript rules: the same rule id, severity, message, fix, pointer, line and column, for every
 * mutation in tests/helpers/rule-mutations.ts. The snapshot was taken from the TypeScript rules before the move
 * (tests/fixtures/rule-diagnostics.snapshot.json); a deliberate change of wording updates it with
 * `UPDATE_RULE_SNAPSHOT=1 npx vitest run tests/schema/rule-diagnostics.test.ts` and shows in review.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, judge } from '../helpers/records.ts';
import { RULE_MUTATIONS } from '../helpers/rule-mutations.ts';

const SNAPSHOT = resolve(FIXTURES_DIR, 'rule-diagnostics.snapshot.json');

function diagnosticsOfTheseRules(): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const m of RULE_MUTATIONS) {
    // Every diagnostic of the record, not only the rule's: moving a rule must not add noise beside it either.
    out[`${m.rule}: ${m.name}`] = judge(m.record).map(({ rule, severity, message, hint, pointer, line, column, at }) => ({ rule, severity, message, hint, pointer, line, column, ...(at ? { at } : {}) }));
  }
  return out;
}

describe('diagnostics of the rules the schema carries', () => {
  const now = diagnosticsOfTheseRules();
  const updating = process.env.UPDATE_RULE_SNAPSHOT === '1';
  if (updating) {
    writeFileSync(SNAPSHOT, JSON.stringify(now, null, 2) + '\n');
    console.warn(`[rule-diagnostics] ${SNAPSHOT} rewritten (UPDATE_RULE_SNAPSHOT=1): the comparison is skipped; review the diff`);
  }

  it.each(RULE_MUTATIONS.map((m) => [`${m.rule}: ${m.name}`, m.rule] as const))('%s is reported under its rule', (key, rule) => {
    expect(now[key]!.some((d) => (d as { rule: string }).rule === rule)).toBe(true);
  });

  // Skipped while rewriting: a snapshot compared with what was just written to it could not fail.
  it.skipIf(updating)('are word for word and place for place what they were', () => {
    expect(existsSync(SNAPSHOT), 'snapshot missing: run with UPDATE_RULE_SNAPSHOT=1 and review it').toBe(true);
    expect(now).toEqual(JSON.parse(readFileSync(SNAPSHOT, 'utf8')));
  });
});
