import type { Finding } from '../../diagnostics/diagnostic.ts';
import { asString, violation } from '../../rules/rule.ts';
import type { ChainRule } from './rule.ts';
import { GUARDIAN_ID_FORM, SHA256_FORM, signingGuardianKey } from './guardian-key.ts';

/**
 * docs/guardians.md section 2, DECISIONS 24: only the registered key retires itself. A guardian_retirement's
 * guardian_public_key_sha256 and guardian_id are those of its signing key; the message names both keys.
 */
export const guardianRetirementKey: ChainRule = {
  id: 'chain/guardian-retirement-key',
  summary: 'A guardian_retirement names the guardian id and key SHA-256 of the key that signs it: only the registered key retires itself (DECISIONS 24).',
  check({ submission, recordType, record }) {
    if (recordType !== 'guardian_retirement' || !record) return [];
    const key = signingGuardianKey(submission);
    if (!key) return [];
    const out: Finding[] = [];
    const hash = asString(record.guardian_public_key_sha256);
    const hint =
      'Sign the retirement with the registered guardian key itself (its key directory): only that key can retire, rotate or report itself compromised. If you lost that key, say so from your new key in another record; it cannot retire the old one.';
    if (hash !== undefined && SHA256_FORM.test(hash) && hash !== key.sha256) {
      out.push(
        violation(
          this.id,
          '/record/guardian_public_key_sha256',
          `the retirement names the guardian key with SHA-256 ${hash}, but it is signed by another key, with SHA-256 ${key.sha256}: only the registered key retires itself`,
          hint,
        ),
      );
    }
    const id = asString(record.guardian_id);
    if (id !== undefined && GUARDIAN_ID_FORM.test(id) && id !== key.guardianId) {
      const named = hash !== undefined && SHA256_FORM.test(hash) ? `, key SHA-256 ${hash}` : '';
      out.push(
        violation(
          this.id,
          '/record/guardian_id',
          `guardian_id is ${id}${named}, but the signing key is ${key.guardianId} (key SHA-256 ${key.sha256}): a guardian is retired only by a record its own key signs`,
          hint,
        ),
      );
    }
    return out;
  },
};
