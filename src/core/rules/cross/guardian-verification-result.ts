import type { RecordRule } from '../rule.ts';

/**
 * DECISIONS 25 (docs/guardians.md section 4): a guardian verification result is what the archive's build derives
 * from a record's presence proof and the guardian registry. A record's own copy is not trusted and not shown: a
 * warning says so, never an error.
 */
export const guardianVerificationResult: RecordRule = {
  id: 'cross/guardian-verification-result',
  summary: 'guardian_verification_result is derived by the build, never taken from a record (DECISIONS 25); a record that carries one gets a warning.',
  check({ record }) {
    if (!Object.hasOwn(record, 'guardian_verification_result')) return [];
    return [
      {
        rule: this.id,
        severity: 'warning',
        message:
          'the record carries its own guardian_verification_result: the archive works that out itself from the guardian_presence_proof and the guardian registry, so this copy is not trusted and not shown',
        hint: 'Remove guardian_verification_result; to let the archive check a guardian key, add the guardian_presence_proof made from the key\'s signature (docs/guardians.md).',
        pointer: '/guardian_verification_result',
        at: 'key',
      },
    ];
  },
};
