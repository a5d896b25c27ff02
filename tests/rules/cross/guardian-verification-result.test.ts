import { describe, expect, it } from 'vitest';
import { guardianVerificationResult } from '../../../src/core/rules/cross/guardian-verification-result.ts';
import { archivedApplication } from '../../helpers/guardians.ts';
import { echoWith, errors, judge, lineOf, ofRule, recordText } from '../../helpers/records.ts';

const RULE = 'cross/guardian-verification-result';

const RESULT = {
  schema: 'service.guardian-verification-result.v1',
  guardian_status: 'active_registered_guardian',
  guardian_id: 'guardian_ed25519_0123456789abcdef',
  guardian_registry_number: '00001',
  signature_valid: true,
  guardian_id_matches_public_key: true,
  payload_hash_matches: true,
  registry_status: 'active',
  proof_scope: 'key_possession_only',
  does_not_prove: ['authority of any kind'],
  errors: [],
  warnings: [],
};

describe(RULE, () => {
  it('is the module of that id', () => expect(guardianVerificationResult.id).toBe(RULE));

  it('says nothing of a record without one', () => {
    expect(ofRule(judge(archivedApplication()), RULE)).toEqual([]);
  });

  it('warns (never an error) when a record carries its own result: the build derives it', () => {
    const record = echoWith({ '/guardian_verification_result': RESULT }, archivedApplication());
    const diags = judge(record);
    expect(errors(diags)).toEqual([]);
    const found = ofRule(diags, RULE);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', pointer: '/guardian_verification_result', line: lineOf(recordText(record), '"guardian_verification_result"'), column: 3 });
    expect(found[0]!.message).toMatch(/not trusted and not shown/);
    expect(found[0]!.hint).toMatch(/^Remove guardian_verification_result/);
  });
});
