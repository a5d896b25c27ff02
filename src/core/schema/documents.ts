/**
 * The project's JSON Schema folder (`schemas/`), imported as modules so that every caller — the validator, the
 * site's /api publisher, the bundled builder — embeds the same documents. Add a schema here when you add a file there.
 */
import echoRecord from '../../../schemas/echo-record-schema.v3.json' with { type: 'json' };
import discoveryProvenance from '../../../schemas/discovery-provenance-schema.json' with { type: 'json' };
import originClassification from '../../../schemas/origin-classification-schema.v1.json' with { type: 'json' };
import receptionClassification from '../../../schemas/reception-classification-schema.v1.json' with { type: 'json' };
import authorshipProof from '../../../schemas/echo-authorship-proof-schema.v1.json' with { type: 'json' };
import authorshipClaim from '../../../schemas/echo-authorship-claim-schema.v1.json' with { type: 'json' };
import guardianRegistration from '../../../schemas/guardian-registration-schema.v1.json' with { type: 'json' };
import guardianPresenceProof from '../../../schemas/guardian-presence-proof-schema.v1.json' with { type: 'json' };
import guardianRetirement from '../../../schemas/guardian-retirement-schema.v1.json' with { type: 'json' };
import guardianVerificationResult from '../../../schemas/guardian-verification-result-schema.v1.json' with { type: 'json' };
import guardianRegistry from '../../../schemas/guardian-registry-schema.v1.json' with { type: 'json' };
import evidenceInput from '../../../schemas/evidence-input-schema.v1.json' with { type: 'json' };
import claimGateOutput from '../../../schemas/claim-gate-output-schema.v1.json' with { type: 'json' };
import generatedBy from '../../../schemas/generated-by-schema.v1.json' with { type: 'json' };
import publicIndex from '../../../schemas/public-index-schema.v1.json' with { type: 'json' };
import recordChainCommon from '../../../schemas/record-chain-common-schema.v1.json' with { type: 'json' };
import recordChainSubmission from '../../../schemas/record-chain-submission-schema.v1.json' with { type: 'json' };
import recordChainEcho from '../../../schemas/record-chain-echo-record-schema.v1.json' with { type: 'json' };
import recordChainVerification from '../../../schemas/record-chain-verification-record-schema.v1.json' with { type: 'json' };
import recordChainPropagation from '../../../schemas/record-chain-propagation-record-schema.v1.json' with { type: 'json' };
import recordChainCorrection from '../../../schemas/record-chain-correction-record-schema.v1.json' with { type: 'json' };
import recordChainNotice from '../../../schemas/record-chain-context-insufficient-notice-schema.v1.json' with { type: 'json' };
import recordChainGuardianApplication from '../../../schemas/record-chain-guardian-application-schema.v1.json' with { type: 'json' };
import recordChainGuardianRetirement from '../../../schemas/record-chain-guardian-retirement-schema.v1.json' with { type: 'json' };
import recordChainClassificationUpdate from '../../../schemas/record-chain-classification-update-schema.v1.json' with { type: 'json' };
import verificationClaimModel from '../../../schemas/verification-claim-model.v1.json' with { type: 'json' };
import recordChainReceipt from '../../../schemas/record-chain-receipt-schema.v1.json' with { type: 'json' };
import gatewayKeys from '../../../schemas/gateway-keys-schema.v1.json' with { type: 'json' };
import recordChainLimits from '../../../schemas/record-chain-limits-schema.v1.json' with { type: 'json' };
import transparencyLog from '../../../schemas/transparency-log-schema.v1.json' with { type: 'json' };

export interface SchemaDocument {
  $id: string;
  title?: string;
  [key: string]: unknown;
}

export const ECHO_RECORD_SCHEMA_ID = '/api/echo-record-schema.v3.json';

/** Every schema document, the Echo v3 record schema first. */
export const schemaDocuments: readonly SchemaDocument[] = [
  echoRecord,
  discoveryProvenance,
  originClassification,
  receptionClassification,
  authorshipProof,
  authorshipClaim,
  guardianRegistration,
  guardianPresenceProof,
  guardianRetirement,
  guardianVerificationResult,
  // The strict evidence pipeline (spec 2.2) and the public index: not part of a record, published beside it.
  evidenceInput,
  claimGateOutput,
  generatedBy,
  publicIndex,
  // The guardian registry the build derives (/api/guardian-registry.json, DECISIONS 25).
  guardianRegistry,
  // The current submission path (spec 1.3, 1.4, DECISIONS "Record-chain submissions"): the envelope, a record schema
  // per record_type, the verification claim model, the gateway's receipts and keys, and the limits policy.
  recordChainSubmission,
  recordChainCommon,
  recordChainEcho,
  recordChainVerification,
  recordChainPropagation,
  recordChainCorrection,
  recordChainNotice,
  recordChainGuardianApplication,
  recordChainGuardianRetirement,
  recordChainClassificationUpdate,
  verificationClaimModel,
  recordChainReceipt,
  gatewayKeys,
  recordChainLimits,
  // The transparency log's description (/api/log.json, docs/transparency-log.md).
  transparencyLog,
];

export function schemaDocument(id: string): SchemaDocument | undefined {
  return schemaDocuments.find((s) => s.$id === id);
}
