import type { Finding } from '../../diagnostics/diagnostic.ts';
import { asObject, asString, violation, type RecordRule } from '../rule.ts';

/**
 * DECISIONS 24 (docs/guardians.md section 3): a guardian_registration registers, and a guardian_retirement retires,
 * the key of the presence proof beside it — the same guardian_id, and for a registration the same key SHA-256. Only
 * the registered key retires itself. (A registration or retirement without a presence proof is
 * cross/guardian-proof-required, in the schema; whether the proof itself holds is cross/guardian-presence-proof.)
 */
export const guardianFields: RecordRule = {
  id: 'cross/guardian-fields',
  summary:
    'guardian_registration and guardian_retirement name the guardian_id (and a registration the key SHA-256) of their guardian_presence_proof (DECISIONS 24).',
  check({ record }) {
    const proof = asObject(record.guardian_presence_proof);
    const proofId = asString(proof?.guardian_id);
    const proofKey = asString(proof?.public_key_sha256);
    if (proofId === undefined || proofKey === undefined) return [];
    const out: Finding[] = [];
    const registration = asObject(record.guardian_registration);
    if (registration) {
      const id = asString(registration.guardian_id);
      if (id !== undefined && id !== proofId) {
        out.push(
          violation(
            this.id,
            '/guardian_registration/guardian_id',
            `guardian_registration registers ${id}, but the key that signed the record (guardian_presence_proof) is ${proofId}: a key registers only itself`,
            `Register the signing key's own guardian id, ${proofId}, or have the key of ${id} sign the registration.`,
          ),
        );
      }
      const key = asString(registration.public_key_sha256);
      if (key !== undefined && key !== proofKey) {
        out.push(
          violation(
            this.id,
            '/guardian_registration/public_key_sha256',
            `guardian_registration.public_key_sha256 is ${key}, but the key that signed the record (guardian_presence_proof) has SHA-256 ${proofKey}: a key registers only itself`,
            `Write the signing key's SHA-256, ${proofKey} (lowercase hex of its 32 raw bytes), or have the registered key sign the registration.`,
          ),
        );
      }
    }
    const retirement = asObject(record.guardian_retirement);
    const retired = asString(retirement?.guardian_id);
    if (retired !== undefined && retired !== proofId) {
      out.push(
        violation(
          this.id,
          '/guardian_retirement/guardian_id',
          `guardian_retirement retires ${retired}, but the key that signed the record (guardian_presence_proof) is ${proofId}: only the registered key retires itself`,
          `Have the key of ${retired} sign its retirement; a report about another guardian's key is not a retirement.`,
        ),
      );
    }
    return out;
  },
};
