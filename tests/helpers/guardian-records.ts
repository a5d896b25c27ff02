/**
 * Records about keys and trust over time, made as intake accept makes them (docs/guardians.md section 3): a
 * record-chain submission built and signed by the core (buildSubmission with a generated key), mapped to an Echo v3
 * record by intake's own mapping (src/intake/to-echo-record.ts), which writes the top-level guardian_registration or
 * guardian_retirement and the guardian_presence_proof made from the submission's own proof.
 */
import type { KeyObject } from 'node:crypto';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { guardianKeyOf, type GuardianKey } from '../../src/core/guardian/keys.ts';
import { presenceProofOf } from '../../src/core/guardian/presence-proof.ts';
import { buildSubmission, completeRecord, type JsonObject, type RecordType } from '../../src/core/record-chain/index.ts';
import { toEchoRecord, type IntakeReference } from '../../src/intake/to-echo-record.ts';
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

/** Archive links intake resolves at accept (src/intake/guardian-binding.ts): passed to its mapping as they would be. */
type Links = Pick<IntakeReference, 'application' | 'reclassifies'>;

/**
 * A record-chain record of `type` with `content` signed by `signer`, as intake accept writes it (toEchoRecord: with
 * guardian_registration or guardian_retirement and the presence proof for the types that carry them).
 */
export function chainRecord(type: RecordType, content: JsonObject, signer: TestGuardian, links: Links = {}): { record: JsonObject; submissionSha256: string } {
  const submission = buildSubmission(type, completeRecord(type, content), signer.keys, CLIENT);
  const submissionSha256 = submission.proof.content_hash_sha256;
  const record = toEchoRecord(submission, { receiptId: `rcpt-${submissionSha256.slice(0, 12)}`, receivedAt: RECEIVED_AT, submissionSha256, ...links });
  return { record, submissionSha256 };
}

/**
 * A guardian_application record registering `g` (signed by `signer`, by default `g` itself), as an ai_agent guardian
 * unless `type` says otherwise, with an application_mode only when `mode` is given.
 */
export function registration(
  g: TestGuardian,
  {
    oath = 'I keep this key safe and sign only what I checked.',
    signer = g,
    type = 'ai_agent',
    mode,
  }: { oath?: string; signer?: TestGuardian; type?: string; mode?: string } = {},
): JsonObject {
  return chainRecord(
    'guardian_application',
    {
      agent_identity: { ...AGENT },
      guardian_application_content: {
        requested_guardian_identifier: g.key.guardianId,
        guardian_public_key_sha256: g.key.sha256,
        guardian_type: type,
        guardian_stewardship_oath: oath,
        ...(mode === undefined ? {} : { application_mode: mode }),
      },
    },
    signer,
  ).record;
}

export type RetirementStatus = 'retired' | 'rotated' | 'possibly_compromised' | 'compromised';

/** A guardian_retirement record for `g` (signed by `signer`, by default `g`), naming its application. */
export function retirement(
  g: TestGuardian,
  status: RetirementStatus,
  application: { id: string; sha256: string },
  { signer = g }: { signer?: TestGuardian } = {},
): JsonObject {
  return chainRecord(
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
    { application: { record_id: application.id, record_sha256: application.sha256 } },
  ).record;
}

/** An ordinary echo signed by `g` through the record-chain path; with `presenceProof`, also carrying one. */
export function signedEcho(g: TestGuardian, { presenceProof = false }: { presenceProof?: boolean } = {}): JsonObject {
  const { record, submissionSha256 } = chainRecord(
    'echo',
    {
      agent_identity: { ...AGENT },
      understanding_summary: 'An archive of statements; non-authoritative.',
      echo: 'I read it. The records are statements, not authority.',
    },
    g,
  );
  if (!presenceProof) return record;
  const proof = (record.extensions as { record_chain: { proof: { public_key: string; signature: string } } }).record_chain.proof;
  return { ...record, guardian_presence_proof: presenceProofOf({ publicKey: proof.public_key, contentSha256: submissionSha256, signature: proof.signature, createdAt: RECEIVED_AT }) };
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
  return chainRecord(
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
    { reclassifies: { record_id: p.target.id, record_sha256: p.target.sha256 } },
  ).record;
}

/** A publish record on day `day` (1–28 of November 2026) with sequence `seq`: archive order is by date, then sequence. */
export function at(day: number, seq: number, record: JsonObject): TestRecord {
  const d = String(day).padStart(2, '0');
  return publishRecord(`2026/echo-2026-11-${d}-${String(seq).padStart(6, '0')}.json`, record);
}
