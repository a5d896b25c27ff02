/**
 * Signed fixtures for the three record types about keys and trust (docs/guardians.md), made with the core: a
 * record-chain submission signed by a generated key (buildSubmission), then intake's own mapping to an Echo v3
 * record (toEchoRecord). Never a hard-coded signature.
 */
import type { KeyObject } from 'node:crypto';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { guardianKeyOf, type GuardianKey } from '../../src/core/guardian/keys.ts';
import { buildSubmission, type JsonObject, type RecordType, type Submission } from '../../src/core/record-chain/index.ts';
import { toEchoRecord, type IntakeReference } from '../../src/intake/to-echo-record.ts';
import { CLIENT, content, KEYS, record } from '../record-chain/helpers.ts';

export type KeyPair = { privateKey: KeyObject; publicKey: KeyObject };

export const RECEIVED_AT = '2026-11-22T11:59:00Z';

/** A new key pair and its guardian identity. */
export function newGuardian(): { keys: KeyPair; key: GuardianKey } {
  const keys = generateEd25519KeyPair();
  return { keys, key: guardianKeyOf(keys.publicKey)! };
}

/** A guardian_application submission of `keys` (its id and key SHA-256 derived from them), with content changes. */
export function applicationOf(keys: KeyPair = KEYS, changes: JsonObject = {}): Submission {
  const key = guardianKeyOf(keys.publicKey)!;
  const base = content('guardian_application').guardian_application_content as JsonObject;
  return buildSubmission(
    'guardian_application',
    record('guardian_application', { guardian_application_content: { ...base, requested_guardian_identifier: key.guardianId, guardian_public_key_sha256: key.sha256, ...changes } }),
    keys,
    CLIENT,
  );
}

/** A guardian_retirement submission signed by `keys`, retiring `of` (default: the signer) and naming an application. */
export function retirementOf(target: { record_id: string; record_sha256: string }, keys: KeyPair = KEYS, changes: JsonObject = {}, of: KeyPair = keys): Submission {
  const key = guardianKeyOf(of.publicKey)!;
  return buildSubmission(
    'guardian_retirement',
    record('guardian_retirement', {
      guardian_id: key.guardianId,
      guardian_public_key_sha256: key.sha256,
      target_guardian_application_record_id: target.record_id,
      target_guardian_application_record_sha256: target.record_sha256,
      ...changes,
    }),
    keys,
    CLIENT,
  );
}

/** A classification_update submission naming `target`, with changes to its content. */
export function classificationUpdateOf(target: { record_id: string; record_sha256: string }, changes: JsonObject = {}, keys: KeyPair = KEYS): Submission {
  const base = content('classification_update').classification_update_content as JsonObject;
  return buildSubmission(
    'classification_update',
    record('classification_update', { classification_update_content: { ...base, target_record_id: target.record_id, target_record_sha256: target.record_sha256, ...changes } }),
    keys,
    CLIENT,
  );
}

/** The Echo v3 record intake writes for `submission` (links as accept would resolve them). */
export function archived(submission: Submission, links: Partial<IntakeReference> = {}): JsonObject {
  return toEchoRecord(submission, { receiptId: 'rcpt_' + '0'.repeat(32), receivedAt: RECEIVED_AT, submissionSha256: submission.proof.content_hash_sha256, ...links });
}

/** An archived guardian application (default: the record-chain helpers' key). */
export const archivedApplication = (keys: KeyPair = KEYS): JsonObject => archived(applicationOf(keys));

/** An archived guardian retirement, signed by `keys`, naming an application that is not looked up. */
export const archivedRetirement = (keys: KeyPair = KEYS): JsonObject => {
  const target = { record_id: 'echo-2026-11-20-000001', record_sha256: 'b'.repeat(64) };
  return archived(retirementOf(target, keys), { application: target });
};

export type { RecordType };
