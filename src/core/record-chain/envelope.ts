/**
 * Building and signing a record-chain submission envelope (DECISIONS "Record-chain submissions", made like
 * DECISIONS 14): `proof.content_hash_sha256` is the SHA-256 of the JCS canonical `record`, and `proof.signature`
 * the Ed25519 signature of that 64-character hex string. That hash is also the submission's identity,
 * `submission_sha256`: the client's timestamps are outside `record`, so rebuilding the same content gives the
 * same identity.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { canonicalSha256 } from '../crypto/sha256.ts';
import { publicKeyToBase64, signEd25519 } from '../crypto/ed25519.ts';
import {
  PROOF_CANONICALIZATION,
  PROOF_METHOD,
  PROPAGATION_BOUNDARY,
  RECORD_BOUNDARY,
  RECORD_SCHEMAS,
  SUBMISSION_SCHEMA,
  type JsonObject,
  type RecordType,
  type Submission,
  type SubmissionClient,
  type SubmissionProof,
} from './types.ts';

/** The submission's identity: lowercase hex SHA-256 of the RFC 8785 canonical form of `record`. */
export function submissionSha256(record: JsonObject): string {
  return canonicalSha256(record);
}

/**
 * The record content with the constants of its type filled in: `schema`, the `boundary` flags, and for propagation
 * the `propagation_boundary` flags. Fields already present are kept as given (the validator judges them), so a
 * caller cannot silently lose what it wrote.
 */
export function completeRecord(recordType: RecordType, content: JsonObject): JsonObject {
  const constants: JsonObject = { schema: RECORD_SCHEMAS[recordType].schema };
  const out: JsonObject = { ...constants, ...content };
  if (!('boundary' in content)) out.boundary = { ...RECORD_BOUNDARY };
  if (recordType === 'propagation' && !('propagation_boundary' in content)) out.propagation_boundary = { ...PROPAGATION_BOUNDARY };
  return out;
}

export interface SigningKeys {
  privateKey: KeyObject;
  /** Derived from the private key when absent. */
  publicKey?: KeyObject;
}

/** The proof over `record` by `keys`. */
export function signRecord(record: JsonObject, keys: SigningKeys): SubmissionProof {
  const hash = submissionSha256(record);
  const publicKey = keys.publicKey ?? createPublicKey(keys.privateKey);
  return {
    method: PROOF_METHOD,
    public_key: publicKeyToBase64(publicKey),
    canonicalization: PROOF_CANONICALIZATION,
    content_hash_sha256: hash,
    signature: signEd25519(keys.privateKey, hash),
  };
}

export interface ClientInfo {
  name: string;
  version: string;
  /** Default: now. */
  generatedAt?: Date | string;
}

/**
 * A signed envelope for `record` (taken as given: use completeRecord first to fill in the constants). It is not
 * validated here: run checkSubmission / validateSubmissionText on the result, as the builder does before writing.
 */
export function buildSubmission(recordType: RecordType, record: JsonObject, keys: SigningKeys, client: ClientInfo): Submission {
  const generated = client.generatedAt ?? new Date();
  const clientField: SubmissionClient = {
    name: client.name,
    version: client.version,
    generated_at: typeof generated === 'string' ? generated : generated.toISOString(),
  };
  return {
    schema: SUBMISSION_SCHEMA,
    record_type: recordType,
    record,
    proof: signRecord(record, keys),
    client: clientField,
  };
}

/** The envelope as a file: two-space JSON and a final newline (what the builder writes and the gateway accepts). */
export function serializeSubmission(submission: Submission): string {
  return JSON.stringify(submission, null, 2) + '\n';
}
