import { describe, expect, it } from 'vitest';
import { guardianProofRequired } from '../../../src/core/rules/cross/guardian-proof-required.ts';
import { archivedApplication, archivedRetirement } from '../../helpers/guardians.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText, REMOVE } from '../../helpers/records.ts';

const RULE = 'cross/guardian-proof-required';

describe(RULE, () => {
  it('is the module of that id', () => expect(guardianProofRequired.id).toBe(RULE));

  it('passes a registration and a retirement that carry their presence proof', () => {
    expect(judge(archivedApplication())).toEqual([]);
    expect(judge(archivedRetirement())).toEqual([]);
  });

  it('passes a presence proof alone (a record signed by a guardian key registers nothing)', () => {
    expect(errors(judge(echoWith({ '/guardian_registration': REMOVE }, archivedApplication())))).toEqual([]);
  });

  it.each([
    ['guardian_registration', archivedApplication, 'registers a guardian key'],
    ['guardian_retirement', archivedRetirement, 'retires a guardian key'],
  ] as const)('flags a %s without a presence proof, at its key', (field, make, words) => {
    const record = echoWith({ '/guardian_presence_proof': REMOVE }, make());
    const diags = judge(record);
    expect(otherThan(errors(diags), RULE)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', pointer: `/${field}`, line: lineOf(recordText(record), `"${field}"`) });
    expect(found[0]!.message).toBe(`the record ${words} (${field}) but has no guardian_presence_proof, so it can never be checked that the key's holder signed it`);
    expect(found[0]!.hint).toMatch(/Add the guardian_presence_proof/);
  });
});
