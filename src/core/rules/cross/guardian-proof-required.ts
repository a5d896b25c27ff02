import { violation, type SchemaRule } from '../rule.ts';

/**
 * DECISIONS 24 (docs/guardians.md section 3): a guardian_registration or guardian_retirement says that a key holder
 * registered or retired a key; only the guardian_presence_proof beside it shows that the key's holder signed it. The
 * condition is the schema's (`$defs/guardian_proof_required`, dependentRequired); this module words its errors.
 */
export const guardianProofRequired: SchemaRule = {
  id: 'cross/guardian-proof-required',
  summary: 'A guardian_registration or guardian_retirement comes with a guardian_presence_proof (DECISIONS 24, docs/guardians.md section 3).',
  explain(errors) {
    return errors.map((e) => {
      const field = String((e.params as { property?: unknown }).property ?? 'guardian_registration');
      const what = field === 'guardian_retirement' ? 'retires a guardian key' : 'registers a guardian key';
      return violation(
        this.id,
        `/${field}`,
        `the record ${what} (${field}) but has no guardian_presence_proof, so it can never be checked that the key's holder signed it`,
        'Add the guardian_presence_proof made from the key\'s signature of this record (intake accept writes it from the record-chain proof: docs/guardians.md section 3), or remove ' +
          `${field} if no key holder signed it.`,
        'key',
      );
    });
  },
};
