import type { Finding } from '../../diagnostics/diagnostic.ts';
import { asObject, asString, violation } from '../../rules/rule.ts';
import type { ChainRule } from './rule.ts';
import { GUARDIAN_ID_FORM, SHA256_FORM, signingGuardianKey } from './guardian-key.ts';

const CONTENT = '/record/guardian_application_content';

/**
 * docs/guardians.md section 2, DECISIONS 24: a guardian application's requested_guardian_identifier and
 * guardian_public_key_sha256 are the ones its signing key gives (guardianKeyOf). Values of the wrong form are the
 * schema's to report.
 */
export const guardianId: ChainRule = {
  id: 'chain/guardian-id',
  summary: 'A guardian_application requests the guardian id and key SHA-256 derived from its signing key (DECISIONS 24, docs/guardians.md).',
  check({ submission, recordType, record }) {
    if (recordType !== 'guardian_application' || !record) return [];
    const content = asObject(record.guardian_application_content);
    const key = content && signingGuardianKey(submission);
    if (!content || !key) return [];
    const out: Finding[] = [];
    const requested = asString(content.requested_guardian_identifier);
    if (requested !== undefined && GUARDIAN_ID_FORM.test(requested) && requested !== key.guardianId) {
      out.push(
        violation(
          this.id,
          `${CONTENT}/requested_guardian_identifier`,
          `requested_guardian_identifier is ${requested}, but the signing key (proof.public_key) gives ${key.guardianId}: a guardian id is derived from its key, never chosen`,
          `Write ${key.guardianId} (guardian_ed25519_ and the first 16 hex characters of the SHA-256 of the key's 32 raw bytes), or sign with the key whose id you meant; the builder's guardian-application command fills both in from the key directory.`,
        ),
      );
    }
    const hash = asString(content.guardian_public_key_sha256);
    if (hash !== undefined && SHA256_FORM.test(hash) && hash !== key.sha256) {
      out.push(
        violation(
          this.id,
          `${CONTENT}/guardian_public_key_sha256`,
          `guardian_public_key_sha256 is ${hash}, but the signing key's SHA-256 is ${key.sha256}: an application registers the key that signs it`,
          `Write ${key.sha256} (the SHA-256 of the signing key's 32 raw bytes), or sign with the key you meant to register; the builder's guardian-application command fills it in from the key directory.`,
        ),
      );
    }
    return out;
  },
};
