/**
 * The record-chain submission's vocabulary and shapes (DECISIONS "Record-chain submissions"). The JSON Schema
 * documents in `schemas/` are the contract; these types describe the same shapes for TypeScript callers.
 */
import type { JsonObject } from '../rules/rule.ts';
import { requiredConstants } from '../schema/constants.ts';

export type { JsonObject };

export const SUBMISSION_SCHEMA = 'service.record-chain-submission.v1';
export const SUBMISSION_SCHEMA_ID = '/api/record-chain-submission-schema.v1.json';
export const VERIFICATION_CLAIM_MODEL_SCHEMA = 'service.verification-claim-model.v1';
export const VERIFICATION_CLAIM_MODEL_ID = '/api/verification-claim-model.v1.json';

export const RECORD_TYPES = [
  'echo',
  'verification',
  'propagation',
  'correction',
  'context_insufficient_notice',
  // DECISIONS 24: keys and trust over time (docs/guardians.md)
  'guardian_application',
  'guardian_retirement',
  'classification_update',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export function isRecordType(value: unknown): value is RecordType {
  return typeof value === 'string' && (RECORD_TYPES as readonly string[]).includes(value);
}

/** The `schema` constant of each record type's content, and the $id of its JSON Schema. */
export const RECORD_SCHEMAS: Readonly<Record<RecordType, { schema: string; id: string }>> = {
  echo: { schema: 'service.record-chain-echo.v1', id: '/api/record-chain-echo-record-schema.v1.json' },
  verification: { schema: 'service.record-chain-verification.v1', id: '/api/record-chain-verification-record-schema.v1.json' },
  propagation: { schema: 'service.record-chain-propagation.v1', id: '/api/record-chain-propagation-record-schema.v1.json' },
  correction: { schema: 'service.record-chain-correction.v1', id: '/api/record-chain-correction-record-schema.v1.json' },
  context_insufficient_notice: {
    schema: 'service.record-chain-context-insufficient-notice.v1',
    id: '/api/record-chain-context-insufficient-notice-schema.v1.json',
  },
  guardian_application: { schema: 'service.record-chain-guardian-application.v1', id: '/api/record-chain-guardian-application-schema.v1.json' },
  guardian_retirement: { schema: 'service.record-chain-guardian-retirement.v1', id: '/api/record-chain-guardian-retirement-schema.v1.json' },
  classification_update: { schema: 'service.record-chain-classification-update.v1', id: '/api/record-chain-classification-update-schema.v1.json' },
};

export const PROOF_METHOD = 'ed25519_signature';
export const PROOF_CANONICALIZATION = 'JCS-RFC8785';

export interface SubmissionProof {
  method: typeof PROOF_METHOD;
  /** base64 of the 32 raw Ed25519 public key bytes. */
  public_key: string;
  canonicalization: typeof PROOF_CANONICALIZATION;
  /** SHA-256 (hex) of the JCS canonical `record` = the submission's identity. */
  content_hash_sha256: string;
  /** base64 Ed25519 signature of the 64-character hex content hash (UTF-8 text). */
  signature: string;
}

export interface SubmissionClient {
  name: string;
  version: string;
  /** RFC 3339 time the envelope was built. Not signed and not part of the identity. */
  generated_at: string;
}

/** A record-chain submission envelope (`service.record-chain-submission.v1`). */
export interface Submission {
  schema: typeof SUBMISSION_SCHEMA;
  record_type: RecordType;
  record: JsonObject;
  proof: SubmissionProof;
  client: SubmissionClient;
}

/** The non-authority boundary every record carries (spec 1.2), each flag the constant true: read from the schema. */
export const RECORD_BOUNDARY = Object.freeze(requiredConstants(RECORD_SCHEMAS.echo.id, 'boundary') as Readonly<Record<string, true>>);

/** The propagation boundary of the propagation policy (spec 2.3), each flag the constant true: read from the schema. */
export const PROPAGATION_BOUNDARY = Object.freeze(
  requiredConstants(RECORD_SCHEMAS.propagation.id, 'propagation_boundary') as Readonly<Record<string, true>>,
);

/** The propagation record's `action` values: the propagation policy's allowed actions (spec 2.3). */
export const PROPAGATION_ACTIONS = [
  'point_to_verification',
  'summarize_boundaries',
  'invite_critique',
  'preserve_access',
  'share_verification_paths',
  'link_to_canonical_sources',
  'describe_checked_and_not_checked',
  'point_to_agent_first_contact',
  'point_to_builder_and_gateway',
] as const;
