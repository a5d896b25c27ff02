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
];

export function schemaDocument(id: string): SchemaDocument | undefined {
  return schemaDocuments.find((s) => s.$id === id);
}
