/** Every rule of the archive, in the order their findings are reported. */
import type { ArchiveRule, RecordRule, SchemaRule } from './rule.ts';
import { notJson } from './file/not-json.ts';
import { tooLarge } from './file/too-large.ts';
import { recordName } from './file/record-name.ts';
import { duplicateId } from './file/duplicate-id.ts';
import { c0Assessment } from './cross/c0-assessment.ts';
import { unsolicitedProvenance } from './cross/unsolicited-provenance.ts';
import { acceptedAttestationClass } from './cross/accepted-attestation-class.ts';
import { v2ScopeLabel } from './cross/v2-scope-label.ts';
import { v3ScopeLabel } from './cross/v3-scope-label.ts';
import { reportFields } from './cross/report-fields.ts';
import { extensionsKeys } from './cross/extensions-keys.ts';
import { unknownAgency } from './cross/unknown-agency.ts';
import { linkedReport } from './cross/linked-report.ts';
import { derivedCounts } from './cross/derived-counts.ts';
import { authorshipProof } from './cross/authorship-proof.ts';
import { claimGateLevel } from './cross/claim-gate-level.ts';
import { failedValidationClaim } from './cross/failed-validation-claim.ts';
import { supersededReason } from './state/superseded-reason.ts';
import { placeholderLeft } from './draft/placeholder.ts';
import { originClassificationMissing } from './cross/origin-classification-missing.ts';
import { extensionsValues } from './cross/extensions-values.ts';
import { guardianProofRequired } from './cross/guardian-proof-required.ts';
import { guardianPresenceProof } from './cross/guardian-presence-proof.ts';
import { guardianFields } from './cross/guardian-fields.ts';
import { guardianVerificationResult } from './cross/guardian-verification-result.ts';

export const archiveRules: readonly ArchiveRule[] = [notJson, tooLarge, recordName, duplicateId];

/**
 * Record rules in the order their findings are reported. SchemaRules (DECISIONS 21) judge nothing themselves: their
 * condition is in the published schema, and they say its errors in plain words.
 */
export const recordRules: readonly (RecordRule | SchemaRule)[] = [
  c0Assessment,
  unsolicitedProvenance,
  acceptedAttestationClass,
  v2ScopeLabel,
  v3ScopeLabel,
  reportFields,
  extensionsKeys,
  unknownAgency,
  linkedReport,
  derivedCounts,
  supersededReason,
  authorshipProof,
  claimGateLevel,
  failedValidationClaim,
  placeholderLeft,
  originClassificationMissing,
  extensionsValues,
  guardianProofRequired,
  guardianPresenceProof,
  guardianFields,
  guardianVerificationResult,
];
