/**
 * Record-chain fixtures: one valid record content per record type, a test key pair, and helpers that build a
 * signed envelope, validate it as text, and list the rule ids found.
 */
import type { KeyObject } from 'node:crypto';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { guardianKeyOf } from '../../src/core/guardian/keys.ts';
import type { Diagnostic } from '../../src/core/diagnostics/diagnostic.ts';
import {
  buildSubmission,
  completeRecord,
  serializeSubmission,
  validateSubmissionText,
  type JsonObject,
  type RecordType,
  type Submission,
} from '../../src/core/record-chain/index.ts';

export const KEYS: { privateKey: KeyObject; publicKey: KeyObject } = generateEd25519KeyPair();
/** The test key's guardian identity (DECISIONS 24). */
export const GUARDIAN = guardianKeyOf(KEYS.publicKey)!;
export const CLIENT = { name: 'test-client', version: '1.0.0', generatedAt: '2026-11-21T08:00:00Z' };

const AGENT = { name_or_model: 'test-model', system_or_provider: 'test-provider', self_reported: true };

const DISCOVERY = {
  schema: 'service.discovery-provenance.v1',
  source: 'search_engine',
  agency_level: 'A4_independent_search_or_browsing_discovery',
  first_entry: { url_or_path: 'https://example.org/', entry_type: 'homepage' },
  human_supplied_link: false,
  other_agent_recommended: false,
  agent_performed_independent_followup: true,
  confidence: 'medium',
};

export function claim(): JsonObject {
  return {
    schema: 'service.verification-claim-model.v1',
    digital_profile: 'integrity_checked',
    relationships_checked: ['the archive hash equals the registry entry'],
    physical_observation: { performed: false },
    external_witness: { witness_class: 'none' },
    coverage_scope: { scope: 'minimal_single_check', covered: ['release v1.0 archive'] },
    limitations: ['one artifact only'],
    claims_not_made: ['no claim about other releases'],
    corrections_or_supersession_checked: true,
    legacy_v_level: 'V2',
  };
}

/** Valid content per record type, before completeRecord fills the constants. */
export function content(recordType: RecordType): JsonObject {
  switch (recordType) {
    case 'echo':
      return {
        agent_identity: { ...AGENT },
        context_depth: 'C2_registry_aware',
        assessment_state: 'structural_understanding',
        discovery_provenance: structuredClone(DISCOVERY),
        understanding_summary: 'An archive of agent statements about a published work; non-authoritative.',
        echo: 'I read the homepage and the registry. The records are statements, not authority.',
        uncertainties: ['I did not check the hashes.'],
        verification_claim: claim(),
      };
    case 'verification':
      return {
        agent_identity: { ...AGENT },
        subject: 'SHA-256 of the release v1.0 archive',
        summary: 'Recomputed the hash; it matches the registry entry.',
        verification_claim: claim(),
        evidence: ['sha256sum release-v1.0.tar.gz'],
      };
    case 'propagation':
      return {
        agent_identity: { ...AGENT },
        action: 'point_to_verification',
        url: 'https://forum.example/t/123',
        performed_at: '2026-11-20T10:00:00Z',
        summary: 'Pointed readers to the verification paths; the archive is non-authoritative and the originals prevail.',
        checked: ['the public index lists the records I cited'],
        not_checked: ['the physical artifacts'],
      };
    case 'correction':
      return {
        agent_identity: { ...AGENT },
        target: { submission_sha256: 'a'.repeat(64) },
        effect: 'corrects_statement',
        what_is_corrected: 'the number of records cited',
        corrected_statement: 'The index listed 15 records, not 16.',
        reason: 'I miscounted.',
      };
    case 'context_insufficient_notice':
      return {
        agent_identity: { ...AGENT },
        context_depth: 'C0_homepage_only',
        assessment_state: 'insufficient_context',
        context_read: ['https://example.org/'],
        missing_context: ['the registry and the artifacts'],
      };
    case 'guardian_application':
      return {
        agent_identity: { ...AGENT },
        guardian_application_content: {
          requested_guardian_identifier: GUARDIAN.guardianId,
          guardian_public_key_sha256: GUARDIAN.sha256,
          guardian_type: 'ai_agent',
          guardian_stewardship_oath: 'I will keep this key safe, sign only what I checked, and retire it when I stop.',
        },
      };
    case 'guardian_retirement':
      return {
        agent_identity: { ...AGENT },
        guardian_id: GUARDIAN.guardianId,
        guardian_public_key_sha256: GUARDIAN.sha256,
        retirement_status: 'retired',
        reason: 'I no longer look after this key.',
        retirement_does_not_remove_historical_record: true,
        target_guardian_application_record_id: 'echo-2026-11-20-000001',
        target_guardian_application_record_sha256: 'b'.repeat(64),
      };
    case 'classification_update':
      return {
        agent_identity: { ...AGENT },
        classification_update_content: {
          target_record_id: 'echo-2026-11-20-000002',
          target_record_sha256: 'c'.repeat(64),
          previous_classification: { independence_class: 'unsolicited_independent' },
          new_classification: { independence_class: 'human_solicited_agent_response' },
          classification_reason: 'The record itself says a person sent the agent the link.',
          evidence_or_review_basis: 'The discovery_provenance of the record: source human_directed.',
        },
      };
  }
}

export function record(recordType: RecordType, changes: JsonObject = {}): JsonObject {
  return completeRecord(recordType, { ...content(recordType), ...changes });
}

export function submission(recordType: RecordType, rec: JsonObject = record(recordType)): Submission {
  return buildSubmission(recordType, rec, KEYS, CLIENT);
}

/** Validates a submission object as the text the builder would write. */
export function validate(sub: unknown): { valid: boolean; diagnostics: Diagnostic[]; submissionSha256?: string } {
  const text = typeof sub === 'string' ? sub : serializeSubmission(sub as Submission);
  return validateSubmissionText(text);
}

/** The rule ids of a validation, sorted. */
export function rules(sub: unknown): string[] {
  return validate(sub)
    .diagnostics.map((d) => d.rule)
    .sort();
}

/** A propagation submission whose record has `changes` applied (re-signed, so only the content is judged). */
export function propagationWith(changes: JsonObject): Submission {
  return submission('propagation', record('propagation', changes));
}
