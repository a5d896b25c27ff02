import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { guardianPresenceProof } from '../../../src/core/rules/cross/guardian-presence-proof.ts';
import type { JsonObject } from '../../../src/core/rules/rule.ts';
import { KEYS } from '../../record-chain/helpers.ts';
import { applicationOf, archived, archivedApplication, newGuardian } from '../../helpers/guardians.ts';
import { echoWith, errors, judge, lineOf, ofRule, otherThan, recordText, REMOVE, validEcho } from '../../helpers/records.ts';

const RULE = 'cross/guardian-presence-proof';

/** A record signed by the helpers' key that carries only a presence proof (no registration, so only this rule judges it). */
const signedRecord = (): JsonObject => echoWith({ '/guardian_registration': REMOVE }, archivedApplication());
const proofOf = (record: JsonObject) => record.guardian_presence_proof as JsonObject;

function onlyFinding(record: JsonObject) {
  const diags = judge(record);
  expect(otherThan(errors(diags), RULE)).toEqual([]);
  const found = ofRule(diags, RULE);
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe(RULE, () => {
  it('is the module of that id', () => expect(guardianPresenceProof.id).toBe(RULE));

  it('passes the presence proof intake makes from a record-chain signature', () => {
    expect(judge(archivedApplication())).toEqual([]);
    expect(judge(signedRecord())).toEqual([]);
  });

  it('passes a proof on a record without a record chain (nothing to bind it to but its own payload)', () => {
    const proof = proofOf(archivedApplication());
    expect(judge(echoWith({ '/guardian_presence_proof': proof }, validEcho()))).toEqual([]);
  });

  it('flags a signature that is not the key\'s signature of signed_message', () => {
    const record = signedRecord();
    // A real signature by the same key, of other content.
    proofOf(record).signature_base64 = applicationOf(KEYS, { guardian_type: 'human' }).proof.signature;
    const found = onlyFinding(record);
    expect(found).toMatchObject({ pointer: '/guardian_presence_proof/signature_base64', line: lineOf(recordText(record), '"signature_base64"') });
    expect(found.message).toBe('the guardian presence proof does not hold: signature_base64 is not a signature of signed_message by public_key_pem');
    expect(found.hint).toMatch(/have the key sign again/);
  });

  it('flags a proof made for other content: it does not show that the key signed this record', () => {
    const record = signedRecord();
    const other = archived(applicationOf(KEYS, { guardian_type: 'human' }));
    record.guardian_presence_proof = proofOf(other);
    const found = onlyFinding(record);
    const sha = (record.extensions as { record_chain: { submission_sha256: string } }).record_chain.submission_sha256;
    expect(found).toMatchObject({ pointer: '/guardian_presence_proof/signed_payload_sha256', line: lineOf(recordText(record), '"signed_payload_sha256"') });
    expect(found.message).toBe(`the guardian presence proof does not hold: signed_payload_sha256 must be the SHA-256 of the record's signed content (${sha})`);
  });

  it('flags a guardian id or key hash that is not derived from the key, at the field that is wrong', () => {
    const other = newGuardian().key;
    const byId = signedRecord();
    proofOf(byId).guardian_id = other.guardianId;
    const own = proofOf(signedRecord());
    const found = onlyFinding(byId);
    expect(found).toMatchObject({ pointer: '/guardian_presence_proof/guardian_id', line: lineOf(recordText(byId), '"guardian_id"', lineOf(recordText(byId), '"guardian_presence_proof"')) });
    expect(found.message).toBe(`the guardian presence proof does not hold: guardian_id and public_key_sha256 must be derived from the key: ${own.guardian_id} and ${own.public_key_sha256}`);

    const byKey = signedRecord();
    proofOf(byKey).public_key_sha256 = other.sha256;
    expect(onlyFinding(byKey).pointer).toBe('/guardian_presence_proof/public_key_sha256');
  });

  it('flags inconsistent payload hashes', () => {
    const record = signedRecord();
    proofOf(record).challenge_sha256 = 'f'.repeat(64);
    const found = onlyFinding(record);
    expect(found.pointer).toBe('/guardian_presence_proof/signed_message');
    expect(found.message).toMatch(/signed_message, challenge and signed_payload_sha256 must be the same hash, and challenge_sha256 its SHA-256/);
  });

  it('flags a key that is not Ed25519', () => {
    const record = signedRecord();
    proofOf(record).public_key_pem = generateKeyPairSync('x25519').publicKey.export({ format: 'pem', type: 'spki' }) as string;
    const found = onlyFinding(record);
    expect(found.pointer).toBe('/guardian_presence_proof/public_key_pem');
    expect(found.message).toBe('the guardian presence proof does not hold: public_key_pem is not an Ed25519 public key');
  });

  it('flags a record chain without submission_sha256: the proof cannot be bound', () => {
    const record = echoWith({ '/extensions/record_chain/submission_sha256': REMOVE }, signedRecord());
    const found = onlyFinding(record);
    expect(found).toMatchObject({ pointer: '/extensions/record_chain', line: lineOf(recordText(record), '"record_chain"') });
    expect(found.message).toMatch(/has no submission_sha256/);
  });

  it('leaves a missing or mistyped field to the schema', () => {
    const diags = judge(echoWith({ '/guardian_presence_proof/signature_base64': REMOVE }, signedRecord()));
    expect(ofRule(diags, RULE)).toEqual([]);
    expect(ofRule(diags, 'schema/required').length).toBeGreaterThan(0);
  });
});
