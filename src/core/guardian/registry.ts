/**
 * The guardian registry, derived from the archive and never authority (DECISIONS 25, docs/guardians.md section 4):
 * registrations numbered in archive order, one guardian per key, each guardian's status from the latest retirement
 * signed by its key, and a guardian verification result for every record that carries a presence proof or is signed
 * by a registered key. One pass over the records in archive order; nothing here is written back into a record.
 */
import { isWithdrawn } from '../record/status.ts';
import { recordChainOf, signingKeyOf } from '../record/record-chain-fields.ts';
import { checkPresenceProof, PRESENCE_PROOF_DOES_NOT_PROVE, type PresenceProofCheck } from './presence-proof.ts';
import { guardianKeyOf } from './keys.ts';

type Json = Record<string, unknown>;

export interface ArchivedRecord {
  id: string;
  record: Json;
}

export const GUARDIAN_STATUSES = ['active', 'retired', 'rotated', 'possibly_compromised', 'compromised'] as const;
export type GuardianStatus = (typeof GUARDIAN_STATUSES)[number];

export interface GuardianStatusChange {
  status: GuardianStatus;
  /** The record that set it: the registration (active) or a retirement. */
  record_id: string;
}

export interface RegistryGuardian {
  /** `00001`, `00002`, … in archive order of registration. */
  registry_number: string;
  guardian_id: string;
  public_key_sha256: string;
  guardian_type: string;
  /** The guardian's own words. */
  declared_intent: string;
  application_mode: string | null;
  status: GuardianStatus;
  /** Every status it had, oldest first: the registration, then each retirement by its key. */
  history: GuardianStatusChange[];
  /** Records signed by its key (other than its registration and retirements), in archive order. */
  signed_records: string[];
}

export interface GuardianVerificationResult {
  schema: 'service.guardian-verification-result.v1';
  guardian_status:
    | 'active_registered_guardian'
    | 'valid_self_registered_guardian_claim'
    | 'valid_unregistered_guardian_claim'
    | 'registered_but_retired'
    | 'registered_but_compromised'
    | 'invalid_guardian_proof'
    | 'missing_guardian_proof';
  guardian_id: string;
  guardian_registry_number: string;
  signature_valid: boolean;
  guardian_id_matches_public_key: boolean;
  payload_hash_matches: boolean;
  registry_status: GuardianStatus | 'not_in_registry';
  proof_scope: 'key_possession_only';
  does_not_prove: string[];
  errors: string[];
  warnings: string[];
}

export interface GuardianRegistry {
  guardians: RegistryGuardian[];
  /** Registrations that numbered nothing: a second one for a key, or one whose proof does not hold, with why. */
  ignored: Array<{ record_id: string; guardian_id: string | null; reason: string }>;
  /** Record id → its guardian verification result (only records with a presence proof or signed by a registered key). */
  results: Map<string, GuardianVerificationResult>;
  /** Record id → the guardian it registered or retired (for links both ways). */
  guardianOf: Map<string, string>;
}

const objectOf = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A record takes part only while it stands: not withdrawn, not rejected, not superseded. */
export function inForce(record: Json): boolean {
  return !isWithdrawn(record) && record.archive_status !== 'rejected' && record.archive_status !== 'superseded';
}

/** The SHA-256 of the record chain's signed content (submission_sha256), when the record carries one. */
function signedSha256(record: Json): string | undefined {
  return str(recordChainOf(record)?.submission_sha256);
}

/** The key that signed a record, as a verified record-chain proof or a verified Ed25519 authorship proof shows it. */
function signingKeySha256(record: Json): string | undefined {
  const chainKey = signingKeyOf(record);
  if (chainKey !== undefined) return guardianKeyOf(chainKey)?.sha256;
  const authorship = objectOf(record.authorship_proof);
  // The archive verifies every ed25519 authorship proof before a build (cross/authorship-proof): a built record's holds.
  if (authorship?.method === 'ed25519_signature' && typeof authorship.public_key === 'string') return guardianKeyOf(authorship.public_key)?.sha256;
  return undefined;
}

const SINCE_WORDS: Partial<Record<GuardianStatus, string>> = {
  retired: 'retired',
  rotated: 'rotated out',
  possibly_compromised: 'reported possibly compromised',
  compromised: 'reported compromised',
};

export function deriveGuardianRegistry(records: readonly ArchivedRecord[]): GuardianRegistry {
  const byKey = new Map<string, RegistryGuardian>();
  const byId = new Map<string, RegistryGuardian>();
  const registry: GuardianRegistry = { guardians: [], ignored: [], results: new Map(), guardianOf: new Map() };
  // Per record: its presence-proof check, the key that signed it, and where in the archive it stands.
  const proofs = new Map<string, PresenceProofCheck>();
  const keys = new Map<string, string>();
  // Guardian id → the status changes after registration, each with its position (to say "signed after …").
  const position = new Map<string, number>();

  records.forEach(({ id, record }, i) => {
    position.set(id, i);
    const proof = objectOf(record.guardian_presence_proof);
    const check = proof ? checkPresenceProof(proof, signedSha256(record)) : undefined;
    if (check) proofs.set(id, check);
    const keySha = check?.key?.sha256 ?? signingKeySha256(record);
    if (keySha !== undefined) keys.set(id, keySha);
    if (!inForce(record)) return;
    const holds = check !== undefined && check.errors.length === 0 && check.key !== undefined && signedSha256(record) !== undefined;

    const registration = objectOf(record.guardian_registration);
    if (registration) {
      const gid = str(registration.guardian_id) ?? null;
      const reason = !holds
        ? 'its guardian presence proof does not hold'
        : registration.guardian_id !== check!.key!.guardianId || registration.public_key_sha256 !== check!.key!.sha256
          ? 'it registers another key than the one that signed it'
          : byKey.has(check!.key!.sha256)
            ? `the key is already registered as guardian ${byKey.get(check!.key!.sha256)!.registry_number}`
            : undefined;
      if (reason) registry.ignored.push({ record_id: id, guardian_id: gid, reason });
      else {
        const guardian: RegistryGuardian = {
          registry_number: String(registry.guardians.length + 1).padStart(5, '0'),
          guardian_id: check!.key!.guardianId,
          public_key_sha256: check!.key!.sha256,
          guardian_type: str(registration.guardian_type) ?? 'unknown',
          declared_intent: str(registration.declared_intent) ?? '',
          application_mode: str(registration.application_mode) ?? null,
          status: 'active',
          history: [{ status: 'active', record_id: id }],
          signed_records: [],
        };
        registry.guardians.push(guardian);
        byKey.set(guardian.public_key_sha256, guardian);
        byId.set(guardian.guardian_id, guardian);
        registry.guardianOf.set(id, guardian.guardian_id);
      }
    }

    const retirement = objectOf(record.guardian_retirement);
    const status = str(retirement?.retirement_status);
    if (retirement && holds && (GUARDIAN_STATUSES as readonly string[]).includes(status ?? '') && status !== 'active') {
      const guardian = byId.get(str(retirement.guardian_id) ?? '');
      // Only the registered key retires itself (DECISIONS 24): the proof's key must be the guardian's.
      if (guardian && guardian.public_key_sha256 === check!.key!.sha256 && retirement.guardian_id === check!.key!.guardianId) {
        guardian.status = status as GuardianStatus;
        guardian.history.push({ status: guardian.status, record_id: id });
        registry.guardianOf.set(id, guardian.guardian_id);
      }
    }
  });

  // Results: every record with a presence proof or signed by a key registered anywhere in the archive.
  for (const { id, record } of records) {
    const check = proofs.get(id);
    const keySha = keys.get(id);
    const guardian = keySha === undefined ? undefined : byKey.get(keySha);
    if (!check && !guardian) continue;
    if (guardian && !guardian.history.some((h) => h.record_id === id)) guardian.signed_records.push(id);
    const warnings: string[] = [];
    if (guardian) {
      const here = position.get(id)!;
      const before = guardian.history.filter((h) => h.status !== 'active' && position.get(h.record_id)! < here);
      const last = before[before.length - 1];
      if (last) warnings.push(`signed after the key was ${SINCE_WORDS[last.status]} (record ${last.record_id})`);
      if (position.get(guardian.history[0]!.record_id)! > here) warnings.push(`signed before the key was registered (record ${guardian.history[0]!.record_id})`);
    }
    const proofValid = check === undefined || check.errors.length === 0;
    const registration = objectOf(record.guardian_registration);
    const guardianStatus: GuardianVerificationResult['guardian_status'] = !proofValid
      ? 'invalid_guardian_proof'
      : guardian === undefined
        ? registration
          ? 'valid_self_registered_guardian_claim'
          : 'valid_unregistered_guardian_claim'
        : guardian.status === 'active'
          ? 'active_registered_guardian'
          : guardian.status === 'retired' || guardian.status === 'rotated'
            ? 'registered_but_retired'
            : 'registered_but_compromised';
    registry.results.set(id, {
      schema: 'service.guardian-verification-result.v1',
      guardian_status: guardianStatus,
      guardian_id: guardian?.guardian_id ?? str(objectOf(record.guardian_presence_proof)?.guardian_id) ?? 'none',
      guardian_registry_number: guardian?.registry_number ?? 'unassigned',
      // Without a presence proof, the key is known from a proof the archive verified (record chain or authorship).
      signature_valid: check ? check.signature_valid : true,
      guardian_id_matches_public_key: check ? check.guardian_id_matches_public_key : true,
      payload_hash_matches: check ? check.payload_hash_matches : true,
      registry_status: guardian?.status ?? 'not_in_registry',
      proof_scope: 'key_possession_only',
      does_not_prove: [...PRESENCE_PROOF_DOES_NOT_PROVE],
      errors: check ? [...check.errors] : [],
      warnings,
    });
  }
  return registry;
}

/** "registered guardian 00001, active": the verification result in a reader's words (pages and index). */
export function guardianSummary(result: GuardianVerificationResult): string {
  const status = result.registry_status.replaceAll('_', ' ');
  const head =
    result.guardian_status === 'invalid_guardian_proof'
      ? `guardian proof does not hold (${result.guardian_id})`
      : result.registry_status === 'not_in_registry'
        ? `signed by an unregistered guardian key (${result.guardian_id})`
        : `registered guardian ${result.guardian_registry_number}, ${status}`;
  return [head, ...result.warnings].join('; ');
}
