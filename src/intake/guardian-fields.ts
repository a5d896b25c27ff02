/**
 * What intake accept writes for the three record types about keys and trust (DECISIONS 24–26, docs/guardians.md
 * section 3), beside the fields every record-chain record gets (to-echo-record.ts):
 *
 *   guardian_application   guardian_registration (the applicant's id, type, key SHA-256, algorithm, its oath as
 *                          declared_intent, the schema's boundary flags, application_mode when given) and
 *                          guardian_presence_proof;
 *   guardian_retirement    guardian_retirement (guardian_id, retirement_status, its reason as statement,
 *                          signed_by_guardian_key, boundary flags) and guardian_presence_proof;
 *   classification_update  nothing at the top level: the proposal stays in the signed record_jcs, which is what the
 *                          build reads (src/core/record/classification.ts).
 *
 * The presence proof is the record chain's own signature restated (src/core/guardian/presence-proof.ts), dated with
 * the gateway's received_at. understanding_summary and echo say what the record is in the archive's words and quote
 * the submitter's text as the submitter's.
 */
import { presenceProofOf } from '../core/guardian/presence-proof.ts';
import type { JsonObject, Submission } from '../core/record-chain/index.ts';
import type { RecordLink } from '../core/record/record-chain-fields.ts';
import { requiredConstants } from '../core/schema/constants.ts';

export type { RecordLink };

export const GUARDIAN_REGISTRATION_SCHEMA_ID = '/api/guardian-registration-schema.v1.json';
export const GUARDIAN_RETIREMENT_SCHEMA_ID = '/api/guardian-retirement-schema.v1.json';

export type KeyRecordType = 'guardian_application' | 'guardian_retirement' | 'classification_update';

/** What a key record's accept links to (extensions.record_chain.application or .reclassifies; read by recordLinkOf), resolved at accept. */
export interface KeyRecordLinks {
  application?: RecordLink;
  reclassifies?: RecordLink;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {});

/** The submitter's own text, quoted as theirs. */
const quote = (text: string): string => `“${text}”`;

const STATUS_WORDS: Record<string, string> = {
  retired: 'retires its key',
  rotated: 'rotates its key out (it will no longer use it)',
  possibly_compromised: 'reports its key possibly compromised',
  compromised: 'reports its key compromised',
};

/** A classification in plain words: `independence_class self_reported, do_not_count_as_attestation true`. */
function classificationWords(value: unknown): string {
  const c = obj(value);
  const parts = Object.entries(c).map(([k, v]) => `${k} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}

/** understanding_summary, echo and uncertainties of a record of one of the three types. */
export function keyRecordTexts(record: JsonObject, type: KeyRecordType): { summary: string; echo: string; uncertainties: string[] } {
  switch (type) {
    case 'guardian_application': {
      const c = obj(record.guardian_application_content);
      const mode = str(c.application_mode);
      return {
        summary:
          `A guardian application: the holder of the Ed25519 key with SHA-256 ${str(c.guardian_public_key_sha256)} asks to be listed as voluntary guardian ` +
          `${str(c.requested_guardian_identifier)} (guardian type ${str(c.guardian_type)}${mode ? `, application mode ${mode}` : ''}). ` +
          'Guardianship grants no authority, verification level or count: the archive only keeps track of what the key says and signs.',
        echo: `The applicant's stewardship oath, in the applicant's own words: ${quote(str(c.guardian_stewardship_oath))}`,
        uncertainties: [
          'The archive checks only that the key signed this application; who holds the key, and whether the oath is kept, it cannot check.',
        ],
      };
    }
    case 'guardian_retirement': {
      const status = str(record.retirement_status);
      return {
        summary:
          `A guardian retirement: guardian ${str(record.guardian_id)} ${STATUS_WORDS[status] ?? `sets its status to ${status}`}, ` +
          `signed by that key; its application is ${str(record.target_guardian_application_record_id)}. ` +
          'The records the key signed before stay in the archive as they are.',
        echo: `The guardian's reason, in the guardian's own words: ${quote(str(record.reason))}`,
        uncertainties: ['The archive checks only that the registered key signed this notice, not what the reason says.'],
      };
    }
    case 'classification_update': {
      const c = obj(record.classification_update_content);
      return {
        summary:
          `A classification update: a proposal to change the classification of record ${str(c.target_record_id)} ` +
          `from ${classificationWords(c.previous_classification)} to ${classificationWords(c.new_classification)}. ` +
          'The record itself is not changed; the archive shows its effective classification, and counts follow it.',
        echo:
          `The proposer's reason, in the proposer's own words: ${quote(str(c.classification_reason))}\n` +
          `The evidence or review basis, in the proposer's own words: ${quote(str(c.evidence_or_review_basis))}`,
        uncertainties: [
          'The proposal applies only while its previous classification is the record\'s classification at the time; it never changes authority or verification level.',
        ],
      };
    }
  }
}

/** The top-level guardian fields intake writes for a submission (none for other record types). */
export function keyRecordFields(submission: Submission, receivedAt: string): JsonObject {
  const type = submission.record_type;
  if (type !== 'guardian_application' && type !== 'guardian_retirement') return {};
  const proof = presenceProofOf({
    publicKey: submission.proof.public_key,
    contentSha256: submission.proof.content_hash_sha256,
    signature: submission.proof.signature,
    createdAt: receivedAt,
  });
  const presence = proof ? { guardian_presence_proof: proof } : {};
  const record = submission.record;
  if (type === 'guardian_application') {
    const c = obj(record.guardian_application_content);
    const fixed = requiredConstants(GUARDIAN_REGISTRATION_SCHEMA_ID);
    return {
      guardian_registration: {
        schema: fixed.schema,
        guardian_id: str(c.requested_guardian_identifier),
        guardian_type: str(c.guardian_type),
        public_key_sha256: str(c.guardian_public_key_sha256),
        algorithm: fixed.algorithm,
        declared_intent: str(c.guardian_stewardship_oath),
        boundaries: requiredConstants(GUARDIAN_REGISTRATION_SCHEMA_ID, 'boundaries'),
        ...(typeof c.application_mode === 'string' ? { application_mode: c.application_mode } : {}),
      },
      ...presence,
    };
  }
  const fixed = requiredConstants(GUARDIAN_RETIREMENT_SCHEMA_ID);
  return {
    guardian_retirement: {
      schema: fixed.schema,
      guardian_id: str(record.guardian_id),
      retirement_status: str(record.retirement_status),
      statement: str(record.reason),
      signed_by_guardian_key: fixed.signed_by_guardian_key,
      boundaries: requiredConstants(GUARDIAN_RETIREMENT_SCHEMA_ID, 'boundaries'),
    },
    ...presence,
  };
}
