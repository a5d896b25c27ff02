/**
 * Intake receipts and the gateway's published keys.
 *
 * A receipt (`service.record-chain-receipt.v1`, /api/record-chain-receipt-schema.v1.json) says that the gateway
 * received a submission: intake only, never inclusion, acceptance or attestation. It is signed so that nobody but
 * the gateway can issue one: `signature` is the base64 Ed25519 signature, by the gateway key `gateway_key_id`, of
 * the 64-character hex SHA-256 of the RFC 8785 canonical receipt without its `signature` field (the same binding
 * as DECISIONS 14). The public keys are published as /api/gateway-keys.json (`service.gateway-keys.v1`).
 *
 * The gateway calls buildReceipt + signReceipt; the builder's `receipt` command calls verifyReceipt.
 */
import { createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { isError, type Diagnostic, type Finding } from '../diagnostics/diagnostic.ts';
import { locateFindings } from '../diagnostics/locate.ts';
import { canonicalSha256, sha256Hex } from '../crypto/sha256.ts';
import { KeyFormatError, parsePublicKey, publicKeyToBase64, signEd25519, verifyEd25519 } from '../crypto/ed25519.ts';
import { parseStrictJson } from '../json/strict-parse.ts';
import { asObject, asString, violation } from '../rules/rule.ts';
import { checkTextDepth } from './limits.ts';
import { chainSchemaFindings } from './schema-findings.ts';
import type { RecordType } from './types.ts';

export const RECEIPT_SCHEMA = 'service.record-chain-receipt.v1';
export const RECEIPT_SCHEMA_ID = '/api/record-chain-receipt-schema.v1.json';
export const GATEWAY_KEYS_SCHEMA = 'service.gateway-keys.v1';
export const GATEWAY_KEYS_SCHEMA_ID = '/api/gateway-keys-schema.v1.json';
/** Public path of the gateway keys document. */
export const GATEWAY_KEYS_PATH = '/api/gateway-keys.json';

export interface Receipt {
  schema: typeof RECEIPT_SCHEMA;
  receipt_id: string;
  submission_sha256: string;
  record_type: RecordType;
  /** RFC 3339. */
  received_at: string;
  /** Always pending in the signed receipt; later status is reported beside it, never by re-signing. */
  status: 'pending';
  intake_only: true;
  final_inclusion_requires_public_index_readback: true;
  readback: { index_url: string; how: string };
  gateway_key_id: string;
  signature: string;
}

export type UnsignedReceipt = Omit<Receipt, 'signature'>;

export interface GatewayKey {
  key_id: string;
  algorithm: 'ed25519';
  /** base64 of the 32 raw public key bytes. */
  public_key: string;
  /** active: signs receipts; retired: signs no new ones but still verifies; revoked: verifies nothing. */
  status: 'active' | 'retired' | 'revoked';
  created_at?: string;
  retired_at?: string;
}

export interface GatewayKeysDocument {
  schema: typeof GATEWAY_KEYS_SCHEMA;
  keys: GatewayKey[];
}

/** A fresh, unguessable receipt id: `rcpt_` and 32 hex digits. */
export function newReceiptId(): string {
  return 'rcpt_' + randomBytes(16).toString('hex');
}

/** The key id of a gateway public key: `gw-ed25519-` and the first 16 hex digits of the SHA-256 of its raw bytes. */
export function gatewayKeyId(publicKey: KeyObject): string {
  const raw = Buffer.from(publicKeyToBase64(publicKey), 'base64');
  return 'gw-ed25519-' + sha256Hex(raw).slice(0, 16);
}

/** A gateway keys document entry for `publicKey`. */
export function gatewayKeyEntry(publicKey: KeyObject, status: GatewayKey['status'] = 'active', createdAt?: string): GatewayKey {
  return {
    key_id: gatewayKeyId(publicKey),
    algorithm: 'ed25519',
    public_key: publicKeyToBase64(publicKey),
    status,
    ...(createdAt ? { created_at: createdAt } : {}),
  };
}

export function gatewayKeysDocument(keys: GatewayKey[]): GatewayKeysDocument {
  return { schema: GATEWAY_KEYS_SCHEMA, keys };
}

/** The readback instructions a receipt carries. */
export function readbackHow(submissionSha256: string): string {
  return (
    `Final inclusion is proven only by readback: fetch index_url (a manifest lists shards), find the entry whose ` +
    `submission_sha256 is ${submissionSha256}, fetch its url (relative to the site base) and check that the SHA-256 ` +
    `of the bytes equals the entry's sha256. The builder does this: node record-chain-builder.mjs readback ` +
    `--submission-sha256 ${submissionSha256}`
  );
}

export interface ReceiptInput {
  submissionSha256: string;
  recordType: RecordType;
  /** The public index, e.g. `${siteConfig().baseUrl}/api/index.json`. */
  indexUrl: string;
  gatewayKeyId: string;
  /** Default: newReceiptId(). */
  receiptId?: string;
  /** Default: now. */
  receivedAt?: Date | string;
  /** Default: readbackHow(submissionSha256). */
  how?: string;
}

/** The unsigned receipt for a submission, every constant filled in. */
export function buildReceipt(input: ReceiptInput): UnsignedReceipt {
  const received = input.receivedAt ?? new Date();
  return {
    schema: RECEIPT_SCHEMA,
    receipt_id: input.receiptId ?? newReceiptId(),
    submission_sha256: input.submissionSha256,
    record_type: input.recordType,
    received_at: typeof received === 'string' ? received : received.toISOString(),
    status: 'pending',
    intake_only: true,
    final_inclusion_requires_public_index_readback: true,
    readback: { index_url: input.indexUrl, how: input.how ?? readbackHow(input.submissionSha256) },
    gateway_key_id: input.gatewayKeyId,
  };
}

/** The hash a receipt signature covers: hex SHA-256 of the JCS canonical receipt without `signature`. */
export function receiptSigningHash(receipt: UnsignedReceipt | Receipt | Record<string, unknown>): string {
  const { signature: _signature, ...unsigned } = receipt as Record<string, unknown>;
  return canonicalSha256(unsigned);
}

/** Signs a receipt with the gateway's private key (`gateway_key_id` must name that key's public half). */
export function signReceipt(receipt: UnsignedReceipt, privateKey: KeyObject): Receipt {
  const expectedId = gatewayKeyId(createPublicKey(privateKey));
  if (receipt.gateway_key_id !== expectedId) {
    throw new Error(`receipt.gateway_key_id is ${receipt.gateway_key_id}, but the signing key's id is ${expectedId}`);
  }
  const { signature: _ignored, ...unsigned } = receipt as UnsignedReceipt & { signature?: string };
  return { ...unsigned, signature: signEd25519(privateKey, receiptSigningHash(unsigned)) };
}

export interface KeysReading {
  keys?: GatewayKeysDocument;
  /** Why the document cannot be used (empty when keys is set). */
  problems: string[];
}

/** Checks a parsed gateway keys document against its schema. */
export function readGatewayKeys(value: unknown): KeysReading {
  const findings = chainSchemaFindings(value, GATEWAY_KEYS_SCHEMA_ID, 'gateway keys document');
  if (findings.length > 0) return { problems: findings.map((f) => f.message) };
  return { keys: value as GatewayKeysDocument, problems: [] };
}

export interface ReceiptExpectation {
  /** The submission the receipt must be for. */
  submissionSha256?: string;
  recordType?: RecordType;
}

export interface ReceiptVerification {
  valid: boolean;
  /** Pointers are into the receipt. Rule ids: schema/…, receipt/unknown-key, receipt/revoked-key, receipt/signature, receipt/mismatch. */
  findings: Finding[];
  /** The key that verified the signature. */
  key?: GatewayKey;
}

/** Verifies a parsed receipt against the published gateway keys (and, optionally, the submission it should be for). */
export function verifyReceipt(receipt: unknown, keys: GatewayKeysDocument, expect: ReceiptExpectation = {}): ReceiptVerification {
  const findings = chainSchemaFindings(receipt, RECEIPT_SCHEMA_ID, 'record-chain receipt');
  const r = asObject(receipt);
  let verifiedBy: GatewayKey | undefined;
  const keyId = asString(r?.gateway_key_id);
  const sig = asString(r?.signature);
  if (r && keyId !== undefined && sig !== undefined) {
    const key = keys.keys.find((k) => k.key_id === keyId);
    if (!key) {
      findings.push(
        violation(
          'receipt/unknown-key',
          '/gateway_key_id',
          `the receipt names gateway key ${keyId}, which the published gateway keys do not list: it was not issued by this gateway`,
          'Verify against the gateway keys of the site the receipt came from (--keys URL|FILE). A receipt whose key is unknown cannot be trusted.',
        ),
      );
    } else if (key.status === 'revoked') {
      findings.push(
        violation(
          'receipt/revoked-key',
          '/gateway_key_id',
          `the receipt is signed with gateway key ${keyId}, which is revoked: its receipts cannot be trusted`,
          'Ask the gateway for the receipt again (GET {gateway_url}/record-chain/receipts/{id}), or submit again: a retry returns a receipt signed with a current key.',
        ),
      );
    } else {
      let verified = false;
      try {
        verified = verifyEd25519(parsePublicKey(key.public_key), receiptSigningHash(r), sig);
      } catch (err) {
        if (!(err instanceof KeyFormatError)) throw err;
      }
      if (verified) {
        verifiedBy = key;
      } else {
        findings.push(
          violation(
            'receipt/signature',
            '/signature',
            `the receipt's signature does not verify with gateway key ${keyId}: the receipt was altered or forged`,
            'Do not rely on this receipt. Fetch it again from the gateway (GET {gateway_url}/record-chain/receipts/{id}); final inclusion is proven only by readback.',
          ),
        );
      }
    }
  }
  if (r && expect.submissionSha256 !== undefined && r.submission_sha256 !== expect.submissionSha256) {
    findings.push(
      violation(
        'receipt/mismatch',
        '/submission_sha256',
        `the receipt is for submission ${String(r.submission_sha256)}, not for ${expect.submissionSha256}`,
        'Use the receipt that the gateway returned for this submission.',
      ),
    );
  }
  if (r && expect.recordType !== undefined && r.record_type !== expect.recordType) {
    findings.push(
      violation(
        'receipt/mismatch',
        '/record_type',
        `the receipt is for a ${String(r.record_type)} record, not ${expect.recordType}`,
        'Use the receipt that the gateway returned for this submission.',
      ),
    );
  }
  const valid = !findings.some(isError) && verifiedBy !== undefined;
  return { valid, findings, ...(verifiedBy ? { key: verifiedBy } : {}) };
}

export interface ReceiptTextVerification {
  valid: boolean;
  receipt?: Receipt;
  key?: GatewayKey;
  diagnostics: Diagnostic[];
}

/** verifyReceipt on bytes or text (a receipt file), strict JSON first; diagnostics are placed in the text. */
export function verifyReceiptText(input: Uint8Array | string, keys: GatewayKeysDocument, expect: ReceiptExpectation = {}): ReceiptTextVerification {
  const text = typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  const tooDeep = checkTextDepth(text); // a receipt is two levels deep: nothing deeper is walked
  if (tooDeep) return { valid: false, diagnostics: locateFindings([tooDeep], undefined) };
  const parsed = parseStrictJson(input);
  const findings: Finding[] = [...parsed.findings];
  let result: ReceiptVerification | undefined;
  if (parsed.isObject) {
    result = verifyReceipt(parsed.value, keys, expect);
    findings.push(...result.findings);
  }
  const diagnostics = findings.length === 0 ? [] : locateFindings(findings, parsed.text);
  const valid = result?.valid === true && !diagnostics.some(isError);
  return {
    valid,
    ...(valid ? { receipt: parsed.value as Receipt } : {}),
    ...(valid && result?.key ? { key: result.key } : {}),
    diagnostics,
  };
}
