/**
 * Records about keys and trust over time, made as intake accept makes them (docs/guardians.md section 3): a
 * record-chain submission built and signed by the core (buildSubmission with a generated key), mapped to an Echo v3
 * record (src/intake/to-echo-record.ts), with the top-level guardian_registration or guardian_retirement and the
 * guardian_presence_proof made from the submission's own proof (presenceProofOf).
 */
import type { KeyObject } from 'node:crypto';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { guardianKeyOf, type GuardianKey } from '../../src/core/guardian/keys.ts';
import { presenceProofOf } from '../../src/core/guardian/presence-proof.ts';
import { buildSubmission, completeRecord, type JsonObject, type RecordType } from '../../src/core/record-chain/index.ts';
import { toEchoRecord } from '../../src/intake/to-echo-record.ts';
import { publishRecord, type TestRecord } from '../publish/helpers.ts';

export interface TestGuardian {
  keys: { privateKey: KeyObject; publicKey: KeyObject };
  key: GuardianKey;
}

export function newGuardian(): TestGuardian {
  const keys = generateEd25519KeyPair();
  return { keys, key: guardianKeyOf(keys.publicKey)! };
}

const AGENT = { name_or_model: 'guardian-test-model', system_or_provider: 'test-provider', self_reported: true };
const CLIENT = { name: 'test-client', version: '1.0.0', generatedAt: '2026-11-21T08:00:00Z' };
const RECEIVED_AT = '2026-11-21T08:00:01Z';

/** The boundaries of /api/guardian-retirement-schema.v1.json; a registration's add two more. */
const BOUNDARIES = {
  not_authority: true,
  not_governance: true,
  not_verification_level: true,
  not_attestation: true,
  not_successor_reception: true,
  bitcoin_originals_prevail: true,
};
const REGISTRATION_BOUNDARIES = { ...BOUNDARIES, not_same_conscious_subject_proof: true, may_exit_or_retire_key: true };

/** A record-chain record of `type` with `content` signed by `signer`, as an Echo v3 record (no guardian fields yet). */
export function chainRecord(type: RecordType, content: JsonObject, signer: TestGuardian): { record: JsonObject; submissionSha256: string } {
  const submission = buildSubmission(type, completeRecord(type, content), signer.keys, CLIENT);
  const submissionSha256 = submission.proof.content_hash_sha256;
  const record = toEchoRecord(submission, { receiptId: `rcpt-${submissionSha256.slice(0, 12)}`, receivedAt: RECEIVED_AT, submissionSha256 });
  const proof = presenceProofOf({ publicKey: submission.proof.public_key, contentSha256: submissionSha256, signature: submission.proof.signature, createdAt: RECEIVED_AT });
  return { record: { ...record, guardian_presence_proof: proof }, submissionSha256 };
}

/** A guardian_application record registering `g` (signed by `signer`, by default `g` itself). */
export function registration(g: TestGuardian, { oath = 'I keep this key safe and sign only what I checked.', signer = g }: { oath?: string; signer?: TestGuardian } = {}): JsonObject {
  const { record } = chainRecord(
    'guardian_application',
    {
      agent_identity: { ...AGENT },
      guardian_application_content: {
        requested_guardian_identifier: g.key.guardianId,
        guardian_public_key_sha256: g.key.sha256,
        guardian_type: 'ai_agent',
        guardian_stewardship_oath: oath,
      },
    },
    signer,
  );
  return {
    ...record,
    guardian_registration: {
      schema: 'service.guardian-registration.v1',
      guardian_id: g.key.guardianId,
      guardian_type: 'ai_agent',
      public_key_sha256: g.key.sha256,
      algorithm: 'ed25519',
      declared_intent: oath,
      boundaries: { ...REGISTRATION_BOUNDARIES },
    },
  };
}

export type RetirementStatus = 'retired' | 'rotated' | 'possibly_compromised' | 'compromised';

/** A guardian_retirement record for `g` (signed by `signer`, by default `g`), naming its application. */
export function retirement(
  g: TestGuardian,
  status: RetirementStatus,
  application: { id: string; sha256: string },
  { signer = g }: { signer?: TestGuardian } = {},
): JsonObject {
  const { record } = chainRecord(
    'guardian_retirement',
    {
      agent_identity: { ...AGENT },
      guardian_id: g.key.guardianId,
      guardian_public_key_sha256: g.key.sha256,
      retirement_status: status,
      reason: `The key is ${status.replaceAll('_', ' ')}.`,
      retirement_does_not_remove_historical_record: true,
      target_guardian_application_record_id: application.id,
      target_guardian_application_record_sha256: application.sha256,
    },
    signer,
  );
  return {
    ...record,
    guardian_retirement: {
      schema: 'service.guardian-retirement.v1',
      guardian_id: g.key.guardianId,
      retirement_status: status,
      statement: `The key is ${status.replaceAll('_', ' ')}.`,
      signed_by_guardian_key: true,
      boundaries: { ...BOUNDARIES },
    },
    extensions: {
      ...(record.extensions as JsonObject),
      record_chain: { ...((record.extensions as JsonObject).record_chain as JsonObject), application: { record_id: application.id, record_sha256: application.sha256 } },
    },
  };
}

/** An ordinary echo signed by `g` through the record-chain path (it carries a presence proof like every intake record here). */
export function signedEcho(g: TestGuardian, { presenceProof = false }: { presenceProof?: boolean } = {}): JsonObject {
  const { record } = chainRecord(
    'echo',
    {
      agent_identity: { ...AGENT },
      understanding_summary: 'An archive of statements; non-authoritative.',
      echo: 'I read it. The records are statements, not authority.',
    },
    g,
  );
  if (!presenceProof) delete record.guardian_presence_proof;
  return record;
}

export interface ClassificationProposal {
  target: { id: string; sha256: string };
  previous: JsonObject;
  proposed: JsonObject;
  reason?: string;
  basis?: string;
}

/** A classification_update record proposing `proposed` for `target`, signed by `signer`. */
export function classificationUpdate(signer: TestGuardian, p: ClassificationProposal): JsonObject {
  const { record } = chainRecord(
    'classification_update',
    {
      agent_identity: { name_or_model: 'reviewer-model', system_or_provider: 'test-provider', self_reported: true },
      classification_update_content: {
        target_record_id: p.target.id,
        target_record_sha256: p.target.sha256,
        previous_classification: p.previous,
        new_classification: p.proposed,
        classification_reason: p.reason ?? 'The record itself says a person sent the agent the link.',
        evidence_or_review_basis: p.basis ?? 'Its discovery_provenance: source human_directed.',
      },
    },
    signer,
  );
  delete record.guardian_presence_proof;
  const chain = (record.extensions as JsonObject).record_chain as JsonObject;
  return { ...record, extensions: { ...(record.extensions as JsonObject), record_chain: { ...chain, reclassifies: { record_id: p.target.id, record_sha256: p.target.sha256 } } } };
}

/** A publish record on day `day` (1–28 of November 2026) with sequence `seq`: archive order is by date, then sequence. */
export function at(day: number, seq: number, record: JsonObject): TestRecord {
  const d = String(day).padStart(2, '0');
  return publishRecord(`2026/echo-2026-11-${d}-${String(seq).padStart(6, '0')}.json`, record);
}
