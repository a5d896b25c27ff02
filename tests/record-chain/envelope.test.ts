/**
 * The envelope: build → validate round trip for every record type, the identity (submission_sha256) and the
 * proof (DECISIONS "Record-chain submissions", 14), strict JSON, and the schema's per-type dispatch.
 */
import { describe, expect, it } from 'vitest';
import { generateEd25519KeyPair, publicKeyToBase64 } from '../../src/core/crypto/ed25519.ts';
import {
  buildSubmission,
  checkSubmission,
  completeRecord,
  RECORD_BOUNDARY,
  RECORD_SCHEMAS,
  RECORD_TYPES,
  serializeSubmission,
  submissionSha256,
  validateSubmissionText,
  type JsonObject,
} from '../../src/core/record-chain/index.ts';
import { schemaDocument } from '../../src/core/schema/documents.ts';
import { referenceJcs, referenceSha256 } from '../helpers/jcs-reference.ts';
import { CLIENT, KEYS, record, rules, submission, validate } from './helpers.ts';

describe('build → validate round trip', () => {
  it.each(RECORD_TYPES)('a %s submission built by the core is valid', (recordType) => {
    const sub = submission(recordType);
    const result = validateSubmissionText(serializeSubmission(sub));
    expect(result.diagnostics).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.recordType).toBe(recordType);
    expect(result.submission).toEqual(JSON.parse(serializeSubmission(sub)));
    expect(result.submissionSha256).toBe(sub.proof.content_hash_sha256);
  });

  it('bytes and text give the same verdict', () => {
    const text = serializeSubmission(submission('echo'));
    expect(validateSubmissionText(Buffer.from(text, 'utf8'))).toEqual(validateSubmissionText(text));
  });

  it('completeRecord fills the schema and boundary constants and keeps what was given', () => {
    const rec = completeRecord('propagation', { summary: 'x', boundary: { not_authority: false } });
    expect(rec.schema).toBe(RECORD_SCHEMAS.propagation.schema);
    expect(rec.boundary).toEqual({ not_authority: false });
    expect(rec.propagation_boundary).toMatchObject({ receipt_is_intake_only: true, final_inclusion_requires_public_index_readback: true });
    expect(completeRecord('echo', {}).boundary).toEqual(RECORD_BOUNDARY);
    expect(completeRecord('echo', {})).not.toHaveProperty('propagation_boundary');
  });

  it('every record type has its schema document, closed at the top level', () => {
    for (const t of RECORD_TYPES) {
      const doc = schemaDocument(RECORD_SCHEMAS[t].id) as JsonObject | undefined;
      expect(doc, t).toBeDefined();
      expect(doc!.additionalProperties).toBe(false);
      expect((doc!.properties as JsonObject).schema).toEqual({ type: 'string', const: RECORD_SCHEMAS[t].schema });
    }
  });
});

describe('identity: submission_sha256', () => {
  it('is the SHA-256 of the JCS canonical record (independent reference)', () => {
    const sub = submission('propagation');
    expect(submissionSha256(sub.record)).toBe(referenceSha256(referenceJcs(sub.record)));
  });

  it('does not depend on the client, its timestamps or the signing key', () => {
    const rec = record('echo');
    const a = buildSubmission('echo', rec, KEYS, { ...CLIENT, generatedAt: '2026-01-01T00:00:00Z' });
    const b = buildSubmission('echo', rec, generateEd25519KeyPair(), { name: 'other', version: '9', generatedAt: new Date() });
    expect(a.client.generated_at).not.toBe(b.client.generated_at);
    expect(validate(a).submissionSha256).toBe(validate(b).submissionSha256);
    expect(validate(a).submissionSha256).toBe(submissionSha256(rec));
  });

  it('does not depend on member order or layout', () => {
    const sub = submission('verification');
    const reversed = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reversed);
      if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]));
      return value;
    };
    const text = JSON.stringify(reversed(sub));
    const result = validateSubmissionText(text);
    expect(result.valid).toBe(true);
    expect(result.submissionSha256).toBe(sub.proof.content_hash_sha256);
  });

  it('changes when the content changes', () => {
    expect(submissionSha256(record('echo'))).not.toBe(submissionSha256(record('echo', { echo: 'something else' })));
  });
});

describe('proof', () => {
  it('is made as DECISIONS 14 says: Ed25519 over the hex hash, base64 raw public key', () => {
    const sub = submission('correction');
    expect(sub.proof).toMatchObject({ method: 'ed25519_signature', canonicalization: 'JCS-RFC8785', public_key: publicKeyToBase64(KEYS.publicKey) });
    expect(sub.proof.content_hash_sha256).toMatch(/^[a-f0-9]{64}$/);
  });

  it('a record changed after signing: chain/content-hash', () => {
    const sub = submission('propagation');
    sub.record.summary = 'Pointed readers to the archive.';
    const result = validate(sub);
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['chain/content-hash']);
    expect(result.diagnostics[0]!.pointer).toBe('/proof/content_hash_sha256');
    expect(result.diagnostics[0]!.hint).toContain(submissionSha256(sub.record));
  });

  it('a hash recomputed over a changed record without re-signing: chain/signature', () => {
    const sub = submission('propagation');
    sub.record.summary = 'Pointed readers to the archive.';
    sub.proof.content_hash_sha256 = submissionSha256(sub.record);
    expect(rules(sub)).toEqual(['chain/signature']);
  });

  it('a signature by another key than public_key: chain/signature', () => {
    const sub = submission('echo');
    sub.proof.public_key = publicKeyToBase64(generateEd25519KeyPair().publicKey);
    const result = validate(sub);
    expect(result.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([['chain/signature', '/proof/signature']]);
  });

  it('a malformed proof is the schema’s to report', () => {
    const sub = submission('echo') as unknown as { proof: JsonObject };
    sub.proof.signature = 'not base64!';
    delete sub.proof.canonicalization;
    expect(rules(sub)).toEqual(['schema/pattern', 'schema/required']);
  });

  it('an unpaired surrogate (a \\uD800 escape) has no canonical form: chain/content-hash at its place, not a throw', () => {
    // Strict JSON lets the escape through; RFC 8785 refuses it, so the record cannot be hashed (found by tests/fuzz).
    const sub = submission('propagation');
    const text = serializeSubmission(sub).replace('"summary": "', '"summary": "\\ud800');
    const result = validateSubmissionText(text);
    expect(result.valid).toBe(false);
    expect(result.submissionSha256).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([['chain/content-hash', '/record/summary']]);
    expect(result.diagnostics[0]!.message).toMatch(/unpaired UTF-16 surrogate/);
    // in a member name: placed at the key
    const inKey = serializeSubmission(sub).replace('"summary": "', '"\\udc00x": 1, "summary": "');
    const d = validateSubmissionText(inKey).diagnostics.find((x) => x.rule === 'chain/content-hash')!;
    expect([d.pointer, inKey.split('\n')[d.line - 1]!.slice(d.column - 1)]).toEqual(['/record/\udc00x', '"\\udc00x": 1, "summary": "Pointed readers to the verification paths; the archive is non-authoritative and the originals prevail.",']);
    // a surrogate pair is a character like any other
    expect(validate(submission('propagation', record('propagation', { summary: 'Pointed readers to the paths 😀; originals prevail.' }))).valid).toBe(true);
  });

  it('a public key of the right form that is not a curve point is refused, not thrown', () => {
    const sub = submission('echo');
    sub.proof.public_key = Buffer.alloc(32, 0xff).toString('base64');
    const result = validate(sub);
    expect(result.valid).toBe(false);
    expect(result.diagnostics.every((d) => d.rule === 'chain/signature')).toBe(true);
  });
});

describe('envelope schema', () => {
  it('record_type selects the record schema: a propagation record under record_type echo is refused', () => {
    const sub = buildSubmission('echo', record('propagation'), KEYS, CLIENT);
    const result = validate(sub);
    expect(result.valid).toBe(false);
    expect(result.diagnostics.some((d) => d.rule === 'schema/const' && d.pointer === '/record/schema')).toBe(true);
  });

  it('an unknown record_type is named with the allowed values', () => {
    const sub = { ...submission('echo'), record_type: 'propaganda' };
    const d = validate(sub).diagnostics.find((x) => x.pointer === '/record_type')!;
    expect(d.rule).toBe('schema/enum');
    expect(d.message).toContain('echo, verification, propagation, correction, context_insufficient_notice');
  });

  it('the envelope and the records are closed; the hint speaks of submissions, not Echo v3', () => {
    const sub = { ...submission('echo'), extra: true } as JsonObject;
    const d = validate(sub).diagnostics.find((x) => x.rule === 'schema/additional-properties')!;
    expect(d.pointer).toBe('/extra');
    expect(d.hint).toContain('record-chain submission');
    expect(d.hint).not.toContain('Echo v3');
  });

  it('the boundary flags are constant true', () => {
    const sub = submission('verification', record('verification', { boundary: { ...RECORD_BOUNDARY, not_authority: false } }));
    const d = validate(sub).diagnostics;
    expect(d.map((x) => [x.rule, x.pointer])).toEqual([['schema/const', '/record/boundary/not_authority']]);
  });

  it('a propagation record says where: channel or url', () => {
    const rec = record('propagation');
    delete rec.url;
    const d = validate(submission('propagation', rec)).diagnostics;
    expect(d.map((x) => x.rule)).toEqual(['schema/any-of']);
    expect(d[0]!.message).toContain('channel, url or both');
  });

  it('a correction names its target', () => {
    const d = validate(submission('correction', record('correction', { target: {} }))).diagnostics;
    expect(d.map((x) => [x.rule, x.pointer])).toEqual([['schema/any-of', '/record/target']]);
  });

  it('a physical observation that was performed is described', () => {
    const rec = record('verification');
    (rec.verification_claim as JsonObject).physical_observation = { performed: true };
    const d = validate(submission('verification', rec)).diagnostics;
    expect(d.map((x) => [x.rule, x.pointer])).toEqual([['schema/required', '/record/verification_claim/physical_observation']]);
    expect(d[0]!.hint).not.toContain('record_kind');
  });

  it('limitations and claims_not_made need at least one item', () => {
    const rec = record('verification');
    Object.assign(rec.verification_claim as JsonObject, { limitations: [], claims_not_made: [] });
    const d = validate(submission('verification', rec)).diagnostics;
    expect(d.map((x) => x.rule)).toEqual(['schema/min-items', 'schema/min-items']);
    expect(d[0]!.hint).not.toContain('origin_limitations');
  });
});

describe('strict JSON', () => {
  it('a duplicate key is refused with its position', () => {
    const text = serializeSubmission(submission('echo')).replace('"record_type": "echo",', '"record_type": "echo",\n  "record_type": "echo",');
    const result = validateSubmissionText(text);
    expect(result.valid).toBe(false);
    expect(result.diagnostics[0]).toMatchObject({ rule: 'json/duplicate-key', line: 4 });
  });

  it('not JSON, or not an object', () => {
    expect(validateSubmissionText('{"schema": ').diagnostics.map((d) => d.rule)).toEqual(['json/syntax']);
    expect(validateSubmissionText('[]').diagnostics.map((d) => d.rule)).toEqual(['json/not-object']);
    expect(checkSubmission(null).findings.map((f) => f.rule)).toEqual(['json/not-object']);
  });

  it('diagnostics carry line and column in the text as written', () => {
    const sub = submission('propagation');
    sub.record.summary = 'changed';
    const text = serializeSubmission(sub);
    const d = validateSubmissionText(text).diagnostics[0]!;
    expect(text.split('\n')[d.line - 1]).toContain('"content_hash_sha256"');
  });
});
