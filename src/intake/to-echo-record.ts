/**
 * Intake review's mapping: a record-chain submission → an Echo v3 record FILE that the archive core validates.
 *
 * Every record type becomes `record_kind: "echo_v3"` with `archive_status: "needs_human_review"` and
 * `independence_class: "self_reported"` (the gateway knows nothing of how the record came about beyond what it says):
 *   agent_identity, context_depth, assessment_state, discovery_provenance: copied when the record has them; else
 *     C1_orientation / preliminary_orientation and an "unknown" discovery provenance (A6_unknown);
 *   origin_classification (DECISIONS 22): derived by src/core/record/origin-classification.ts from that discovery
 *     provenance (source, agency level, human link, agent referral and its invitation scope, else the invitation
 *     scope the submission's own origin_classification states), the verification claim's digital_profile, and
 *     `unknown` where the submission says nothing; counted as gateway_intake_only, self-reported, never formal
 *     attestation (counts_as_independent_attestation stays false, ruling 9). The submitted classification itself
 *     stays in record_jcs;
 *   understanding_summary: echo's understanding_summary; verification/propagation summary; correction
 *     what_is_corrected; notice context_read;
 *   echo: echo's echo; propagation action, where and when and the summary; correction corrected_statement/effect and
 *     reason; notice note or missing context; verification summary;
 *   uncertainties: echo's uncertainties; propagation not_checked; notice missing_context; verification claim limitations;
 *   verification_level: "none" (the record-chain claim model is not the historical V scale; a legacy_v_level stays
 *     in the submitted record); verification_claim: "None." or a pointer to the submitted claim.
 *   extensions.record_chain: { submission_sha256, record_type, receipt_id, received_at, claim?, corrects?, proof: {
 *     method, public_key, content_hash_sha256, signature, hashing: "JCS-RFC8785" }, record_jcs }: record_jcs is the
 *     JCS text of the submitted record (its SHA-256 is submission_sha256; the proof's signature is over that hash),
 *     so anyone can check the proof from the archived file alone. record_type and claim (the submitted
 *     verification_claim) stay readable beside it (DECISIONS 19); a correction's corrects names the archive record
 *     it corrects, resolved at accept (DECISIONS 16). The readers are in src/core/record/record-chain-fields.ts.
 *     Extension keys avoid the words the archive forbids in keys (the proof's `canonicalization` is carried as
 *     `hashing`; the claim's keys go through extensionSafeKeys).
 *   claim_gate_output, generated_by: for a verification carrying an evidence input (claim-gate-fields.ts).
 *   guardian_registration, guardian_retirement, guardian_presence_proof, and the texts of guardian_application,
 *     guardian_retirement and classification_update (guardian-fields.ts); extensions.record_chain.application and
 *     .reclassifies ({ record_id, record_sha256 }), bound to the archive at accept (guardian-binding.ts).
 */
import { canonicalJson } from '../core/canonical/jcs.ts';
import type { JsonObject, Submission } from '../core/record-chain/index.ts';
import { deriveOriginClassification } from '../core/record/origin-classification.ts';
import { extensionSafeKeys, type CorrectionLink } from '../core/record/record-chain-fields.ts';
import { constantTrueFlags, requiredConstants } from '../core/schema/constants.ts';
import { ECHO_RECORD_SCHEMA_ID } from '../core/schema/documents.ts';
import { claimGateFields } from './claim-gate-fields.ts';
import { keyRecordFields, keyRecordTexts, type KeyRecordLinks } from './guardian-fields.ts';

export interface IntakeReference {
  receiptId: string;
  receivedAt: string;
  submissionSha256: string;
  /** For a correction: the archive record it corrects, as intake resolved it. */
  corrects?: CorrectionLink;
  /** For a guardian retirement: the archived application; for a classification update: the record it names (guardian-binding.ts). */
  application?: KeyRecordLinks['application'];
  reclassifies?: KeyRecordLinks['reclassifies'];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);
const obj = (v: unknown): JsonObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);

export const UNKNOWN_DISCOVERY: JsonObject = {
  schema: 'service.discovery-provenance.v1',
  source: 'unknown',
  agency_level: 'A6_unknown',
  first_entry: { url_or_path: 'not stated in the record-chain submission', entry_type: 'other' },
  human_supplied_link: false,
  other_agent_recommended: false,
  agent_performed_independent_followup: false,
  confidence: 'low',
};

function texts(record: JsonObject, type: Submission['record_type']): { summary: string; echo: string; uncertainties: string[] } {
  const claim = obj(record.verification_claim);
  switch (type) {
    case 'echo':
      return { summary: str(record.understanding_summary) ?? '', echo: str(record.echo) ?? '', uncertainties: strings(record.uncertainties) };
    case 'verification':
      return { summary: str(record.summary) ?? '', echo: str(record.summary) ?? '', uncertainties: strings(claim?.limitations) };
    case 'propagation': {
      const where = [str(record.channel), str(record.url)].filter(Boolean).join(', ');
      const echo = `Propagation (${str(record.action) ?? 'action not stated'}) on ${where || 'a channel not stated'} at ${str(record.performed_at) ?? 'a time not stated'}: ${str(record.summary) ?? ''}`;
      const checked = strings(record.checked);
      return {
        summary: str(record.summary) ?? '',
        echo: checked.length ? `${echo}\nChecked: ${checked.join('; ')}` : echo,
        uncertainties: strings(record.not_checked).map((s) => `Not checked: ${s}`),
      };
    }
    case 'correction': {
      const target = obj(record.target);
      const targetText = [str(target?.record_id), str(target?.submission_sha256)].filter(Boolean).join(' / ');
      const what = str(record.what_is_corrected) ?? '';
      const effect = str(record.effect) === 'withdraws_record' ? 'withdraws the record' : `corrects the statement: ${str(record.corrected_statement) ?? ''}`;
      return { summary: `Correction of ${targetText || 'an earlier record'}: ${what}`, echo: `This correction ${effect}. Reason: ${str(record.reason) ?? ''}`, uncertainties: [] };
    }
    case 'context_insufficient_notice': {
      const missing = strings(record.missing_context);
      return {
        summary: `Context was insufficient for an assessment. Read: ${strings(record.context_read).join('; ') || str(record.context_read) || 'not stated'}`,
        echo: str(record.note) ?? `Missing context: ${missing.join('; ')}`,
        uncertainties: missing.map((s) => `Missing context: ${s}`),
      };
    }
    // DECISIONS 24 (docs/guardians.md section 3): the three record types about keys and trust (guardian-fields.ts).
    case 'guardian_application':
    case 'guardian_retirement':
    case 'classification_update':
      return keyRecordTexts(record, type);
  }
}

export function toEchoRecord(submission: Submission, intake: IntakeReference): JsonObject {
  const record = submission.record;
  const type = submission.record_type;
  const t = texts(record, type);
  const claim = obj(record.verification_claim);
  const discovery = obj(record.discovery_provenance) ?? UNKNOWN_DISCOVERY;
  const agent = obj(record.agent_identity) ?? { name_or_model: 'unknown', system_or_provider: 'unknown', self_reported: true };
  const origin = deriveOriginClassification(
    { record_kind: 'echo_v3', archive_status: 'needs_human_review', independence_class: 'self_reported', discovery_provenance: discovery, agent_identity: agent },
    { via: 'gateway', digitalProfile: claim?.digital_profile, statedInvitationScope: obj(record.origin_classification)?.invitation_scope },
  );
  return {
    schema: 'service.echo.v3',
    echo_version: '3.0',
    record_kind: 'echo_v3',
    agent_identity: agent,
    context_depth: str(record.context_depth) ?? 'C1_orientation',
    assessment_state: str(record.assessment_state) ?? 'preliminary_orientation',
    verification_level: 'none',
    discovery_provenance: discovery,
    origin_classification: origin,
    independence_class: 'self_reported',
    archive_status: 'needs_human_review',
    origin_limitations: [
      `Submitted through the record-chain gateway as a signed ${type} record (receipt ${intake.receiptId}); everything in it is self-reported.`,
      'The signature shows who holds the signing key, not who the agent is.',
    ],
    counts_as_independent_attestation: false,
    understanding_summary: t.summary,
    verification_claim: claim
      ? 'The submitter made a bounded claim in the verification claim model (service.verification-claim-model.v1); it is in extensions.record_chain.claim, in the submitter\'s words.'
      : 'None.',
    echo: t.echo,
    uncertainties: t.uncertainties,
    boundary_acknowledgement: requiredConstants(ECHO_RECORD_SCHEMA_ID, 'boundary_acknowledgement'),
    ...constantTrueFlags(ECHO_RECORD_SCHEMA_ID),
    ...claimGateFields(submission),
    ...keyRecordFields(submission, intake.receivedAt),
    extensions: {
      record_chain: {
        submission_sha256: intake.submissionSha256,
        record_type: type,
        receipt_id: intake.receiptId,
        received_at: intake.receivedAt,
        ...(claim ? { claim: extensionSafeKeys(claim) as JsonObject } : {}),
        ...(intake.corrects ? { corrects: { ...intake.corrects } } : {}),
        ...(intake.application ? { application: { ...intake.application } } : {}),
        ...(intake.reclassifies ? { reclassifies: { ...intake.reclassifies } } : {}),
        proof: {
          method: submission.proof.method,
          public_key: submission.proof.public_key,
          content_hash_sha256: submission.proof.content_hash_sha256,
          signature: submission.proof.signature,
          hashing: submission.proof.canonicalization,
        },
        record_jcs: canonicalJson(record),
      },
    },
  };
}
