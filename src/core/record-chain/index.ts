/**
 * The record-chain core: the current public submission path (spec 1.3, 1.4, 2.3, 4; DECISIONS "Record-chain
 * submissions"). One set of schemas and rules for the builder, the gateway and the archive: import from here.
 *
 * Building (builder, tests):
 *   completeRecord(recordType, content) → record with schema + boundary constants filled in
 *   buildSubmission(recordType, record, { privateKey, publicKey? }, { name, version, generatedAt? }) → Submission
 *   serializeSubmission(submission) → the file text
 *   submissionSha256(record) → hex identity (SHA-256 of the JCS canonical record)
 *
 * Judging (builder doctor, gateway preflight/submit, archive):
 *   validateSubmissionText(bytes | string, { limits? }) → { valid, submission?, submissionSha256?, recordType?, diagnostics }
 *   checkSubmission(value, { limits? }) → { valid, findings, recordType?, submissionSha256? }   (already parsed)
 *   recordChainLimits() / checkBodySize(byteLength) / checkTextDepth(text) / checkLimits(value)
 *
 * Receipts (gateway signs, builder verifies):
 *   buildReceipt({ submissionSha256, recordType, indexUrl, gatewayKeyId, receiptId?, receivedAt? }) → UnsignedReceipt
 *   signReceipt(unsigned, gatewayPrivateKey) → Receipt
 *   gatewayKeyId(publicKey), gatewayKeyEntry(publicKey, status?), gatewayKeysDocument(entries)
 *   readGatewayKeys(value) → { keys?, problems }
 *   verifyReceipt(value, keys, { submissionSha256?, recordType? }) / verifyReceiptText(bytes, keys, expect?)
 *
 * The Claim Gate on a verification record that carries an evidence_input (doctor, preflight, submit, intake):
 *   judgeSubmissionClaim(record) → { output, reasons, findings } | undefined   (also rule chain/claim-gate)
 *
 * The gateway's HTTP shapes (what the builder expects): protocol.ts; its OpenAPI description: openapi.ts.
 */
export * from './types.ts';
export { buildSubmission, completeRecord, serializeSubmission, signRecord, submissionSha256, type ClientInfo, type SigningKeys } from './envelope.ts';
export { checkSubmission, validateSubmissionText, type CheckOptions, type SubmissionCheck, type SubmissionValidation } from './validate.ts';
export {
  checkBodySize,
  checkLimits,
  checkTextDepth,
  LIMIT_RULES,
  LIMITS_DOCUMENT_PATH,
  LIMITS_SCHEMA_ID,
  recordChainLimits,
  type RecordChainLimits,
} from './limits.ts';
export * from './receipt.ts';
export * from './protocol.ts';
export { canonicalHashRef, CLAIM_GATE_RULE_ID, judgeSubmissionClaim, validationResultOf, type SubmissionGateJudgement } from './claim-gate.ts';
export { gatewayOpenApi, gatewayOperations, GATEWAY_OPENAPI_PATH, type GatewayDescriptionInput } from './openapi.ts';
export { chainRules, type ChainRule, type ChainContext } from './rules/index.ts';
export { FORBIDDEN_ITEMS, findForbiddenPhrases, type ForbiddenItem } from '../text/claim-phrases.ts';
export { SECRET_SHAPES, findSecret } from './rules/secrets.ts';
