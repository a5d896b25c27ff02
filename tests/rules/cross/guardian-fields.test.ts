import { describe, expect, it } from 'vitest';
import { guardianFields } from '../../../src/core/rules/cross/guardian-fields.ts';
import type { JsonObject } from '../../../src/core/rules/rule.ts';
import { archivedApplication, archivedRetirement, newGuardian } from '../../helpers/guardians.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText } from '../../helpers/records.ts';

const RULE = 'cross/guardian-fields';

function onlyFinding(record: JsonObject) {
  const diags = judge(record);
  expect(otherThan(errors(diags), RULE)).toEqual([]);
  const found = ofRule(diags, RULE);
  expect(found).toHaveLength(1);
  return found[0]!;
}

const at = (record: JsonObject, object: string, field: string) => lineOf(recordText(record), `"${field}"`, lineOf(recordText(record), `"${object}"`));

describe(RULE, () => {
  it('is the module of that id', () => expect(guardianFields.id).toBe(RULE));

  it('passes a registration and a retirement of the key that signed them', () => {
    expect(judge(archivedApplication())).toEqual([]);
    expect(judge(archivedRetirement())).toEqual([]);
  });

  it('flags a registration of another guardian id than the signing key\'s', () => {
    const other = newGuardian().key;
    const record = echoWith({ '/guardian_registration/guardian_id': other.guardianId }, archivedApplication());
    const own = (record.guardian_presence_proof as JsonObject).guardian_id as string;
    const found = onlyFinding(record);
    expect(found).toMatchObject({ severity: 'error', pointer: '/guardian_registration/guardian_id', line: at(record, 'guardian_registration', 'guardian_id') });
    expect(found.message).toBe(`guardian_registration registers ${other.guardianId}, but the key that signed the record (guardian_presence_proof) is ${own}: a key registers only itself`);
    expect(found.hint).toContain(own);
  });

  it('flags a registration of another key SHA-256 than the signing key\'s', () => {
    const other = newGuardian().key;
    const record = echoWith({ '/guardian_registration/public_key_sha256': other.sha256 }, archivedApplication());
    const found = onlyFinding(record);
    expect(found).toMatchObject({ pointer: '/guardian_registration/public_key_sha256', line: at(record, 'guardian_registration', 'public_key_sha256') });
    expect(found.message).toMatch(/^guardian_registration\.public_key_sha256 is [0-9a-f]{64}, but the key that signed the record/);
  });

  it('flags a retirement of another guardian than the key that signed it', () => {
    const other = newGuardian().key;
    const record = echoWith({ '/guardian_retirement/guardian_id': other.guardianId }, archivedRetirement());
    const found = onlyFinding(record);
    expect(found).toMatchObject({ pointer: '/guardian_retirement/guardian_id', line: at(record, 'guardian_retirement', 'guardian_id') });
    expect(found.message).toMatch(/only the registered key retires itself$/);
  });
});
