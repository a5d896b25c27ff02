/**
 * Receipts: signed by the gateway key over the hex SHA-256 of the JCS canonical receipt without its signature;
 * verified against the published gateway keys. A forged or altered receipt never verifies.
 */
import { describe, expect, it } from 'vitest';
import { generateEd25519KeyPair, signEd25519 } from '../../src/core/crypto/ed25519.ts';
import {
  buildReceipt,
  gatewayKeyEntry,
  gatewayKeyId,
  gatewayKeysDocument,
  readGatewayKeys,
  receiptSigningHash,
  signReceipt,
  verifyReceipt,
  verifyReceiptText,
  type Receipt,
} from '../../src/core/record-chain/index.ts';
import { referenceJcs, referenceSha256 } from '../helpers/jcs-reference.ts';
import { submission } from './helpers.ts';

const gateway = generateEd25519KeyPair();
const keys = gatewayKeysDocument([gatewayKeyEntry(gateway.publicKey, 'active', '2026-11-01T00:00:00Z')]);
const sub = submission('propagation');
const SHA = sub.proof.content_hash_sha256;

function issue(overrides: Partial<Parameters<typeof buildReceipt>[0]> = {}): Receipt {
  return signReceipt(
    buildReceipt({
      submissionSha256: SHA,
      recordType: 'propagation',
      indexUrl: 'https://archive.example/api/index.json',
      gatewayKeyId: gatewayKeyId(gateway.publicKey),
      receivedAt: '2026-11-21T09:00:00Z',
      ...overrides,
    }),
    gateway.privateKey,
  );
}

describe('issuing', () => {
  it('fills every constant: pending, intake only, readback required', () => {
    const r = issue();
    expect(r).toMatchObject({
      schema: 'service.record-chain-receipt.v1',
      submission_sha256: SHA,
      record_type: 'propagation',
      received_at: '2026-11-21T09:00:00Z',
      status: 'pending',
      intake_only: true,
      final_inclusion_requires_public_index_readback: true,
      gateway_key_id: gatewayKeyId(gateway.publicKey),
    });
    expect(r.receipt_id).toMatch(/^rcpt_[a-f0-9]{32}$/);
    expect(r.readback.index_url).toBe('https://archive.example/api/index.json');
    expect(r.readback.how).toContain(SHA);
  });

  it('the signature covers the JCS canonical receipt without signature (independent reference)', () => {
    const r = issue();
    const { signature: _s, ...unsigned } = r;
    expect(receiptSigningHash(r)).toBe(referenceSha256(referenceJcs(unsigned)));
  });

  it('refuses to sign with a key other than the one gateway_key_id names', () => {
    const other = generateEd25519KeyPair();
    const unsigned = buildReceipt({ submissionSha256: SHA, recordType: 'echo', indexUrl: 'https://a.example/api/index.json', gatewayKeyId: gatewayKeyId(gateway.publicKey) });
    expect(() => signReceipt(unsigned, other.privateKey)).toThrow(/signing key/);
  });

  it('the key id is derived from the public key', () => {
    expect(gatewayKeyId(gateway.publicKey)).toMatch(/^gw-ed25519-[a-f0-9]{16}$/);
    expect(gatewayKeyId(generateEd25519KeyPair().publicKey)).not.toBe(gatewayKeyId(gateway.publicKey));
    expect(readGatewayKeys(keys)).toEqual({ keys, problems: [] });
    expect(readGatewayKeys({ schema: 'service.gateway-keys.v1', keys: [{ key_id: 'x' }] }).problems.length).toBeGreaterThan(0);
  });
});

describe('verifying', () => {
  it('a genuine receipt verifies, also for the submission it is for', () => {
    const r = issue();
    const result = verifyReceipt(r, keys, { submissionSha256: SHA, recordType: 'propagation' });
    expect(result.findings).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.key?.key_id).toBe(gatewayKeyId(gateway.publicKey));
  });

  it.each([
    ['submission_sha256', 'b'.repeat(64)],
    ['received_at', '2026-11-21T09:00:01Z'],
    ['receipt_id', 'rcpt_0000000000000000'],
    ['record_type', 'echo'],
  ] as const)('an altered %s is a forgery', (field, value) => {
    const r = { ...issue(), [field]: value };
    const result = verifyReceipt(r, keys);
    expect(result.valid).toBe(false);
    expect(result.findings.map((f) => f.rule)).toEqual(['receipt/signature']);
  });

  it('a status or boundary changed to claim inclusion is refused by the schema and the signature', () => {
    const r = { ...issue(), status: 'accepted', intake_only: false };
    const rules = verifyReceipt(r, keys).findings.map((f) => f.rule).sort();
    expect(rules).toEqual(['receipt/signature', 'schema/const', 'schema/const']);
  });

  it('a receipt signed by another key under the gateway key id is a forgery', () => {
    const forger = generateEd25519KeyPair();
    const r = issue();
    const { signature: _s, ...unsigned } = r;
    const forged = { ...unsigned, signature: signEd25519(forger.privateKey, receiptSigningHash(unsigned)) };
    expect(verifyReceipt(forged, keys).findings.map((f) => f.rule)).toEqual(['receipt/signature']);
  });

  it('a self-consistent receipt under an unpublished key is not trusted', () => {
    const forger = generateEd25519KeyPair();
    const forged = signReceipt(
      buildReceipt({ submissionSha256: SHA, recordType: 'propagation', indexUrl: 'https://a.example/api/index.json', gatewayKeyId: gatewayKeyId(forger.publicKey) }),
      forger.privateKey,
    );
    const result = verifyReceipt(forged, keys);
    expect(result.valid).toBe(false);
    expect(result.findings.map((f) => f.rule)).toEqual(['receipt/unknown-key']);
  });

  it('retired keys still verify old receipts; revoked keys verify nothing', () => {
    const r = issue();
    const retired = gatewayKeysDocument([{ ...keys.keys[0]!, status: 'retired', retired_at: '2026-11-30T00:00:00Z' }]);
    expect(verifyReceipt(r, retired).valid).toBe(true);
    const revoked = gatewayKeysDocument([{ ...keys.keys[0]!, status: 'revoked' }]);
    expect(verifyReceipt(r, revoked).findings.map((f) => f.rule)).toEqual(['receipt/revoked-key']);
  });

  it('a receipt for another submission is named as such', () => {
    const result = verifyReceipt(issue(), keys, { submissionSha256: 'c'.repeat(64) });
    expect(result.valid).toBe(false);
    expect(result.findings.map((f) => [f.rule, f.pointer])).toEqual([['receipt/mismatch', '/submission_sha256']]);
  });

  it('from text: strict JSON and positions', () => {
    const text = JSON.stringify({ ...issue(), received_at: '2026-01-01T00:00:00Z' }, null, 2) + '\n';
    const result = verifyReceiptText(text, keys);
    expect(result.valid).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ rule: 'receipt/signature' });
    expect(text.split('\n')[result.diagnostics[0]!.line - 1]).toContain('"signature"');
    expect(verifyReceiptText(JSON.stringify(issue()), keys).valid).toBe(true);
    expect(verifyReceiptText('{"a":1,"a":2}', keys).diagnostics.map((d) => d.rule)).toContain('json/duplicate-key');
  });
});
