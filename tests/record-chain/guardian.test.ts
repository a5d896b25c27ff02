/**
 * The record chain's guardian rules (docs/guardians.md sections 1 and 2): chain/guardian-id and
 * chain/guardian-retirement-key, each with a failing and a passing case, the per-type text caps of the limits
 * policy, and the constants completeRecord fills for the three further record types.
 */
import { describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { guardianKeyOf } from '../../src/core/guardian/keys.ts';
import {
  buildSubmission,
  checkLimits,
  completeRecord,
  LIMIT_RULES,
  RECORD_BOUNDARY,
  RECORD_SCHEMAS,
  recordChainLimits,
  type JsonObject,
} from '../../src/core/record-chain/index.ts';
import { CLIENT, content, GUARDIAN, record, rules, submission, validate } from './helpers.ts';

const OTHER = generateEd25519KeyPair();
const OTHER_GUARDIAN = guardianKeyOf(OTHER.publicKey)!;

function application(changes: JsonObject): JsonObject {
  const base = content('guardian_application');
  return record('guardian_application', {
    guardian_application_content: { ...(base.guardian_application_content as JsonObject), ...changes },
  });
}

describe('completeRecord fills the constants of the three further types', () => {
  it.each(['guardian_application', 'guardian_retirement', 'classification_update'] as const)('%s', (t) => {
    const rec = completeRecord(t, content(t));
    expect(rec.schema).toBe(RECORD_SCHEMAS[t].schema);
    expect(rec.boundary).toEqual({ ...RECORD_BOUNDARY });
    expect(rec.propagation_boundary).toBeUndefined();
    expect(rules(submission(t))).toEqual([]);
  });
});

describe('chain/guardian-id', () => {
  it('passes when the id and key hash are the signing key\'s', () => {
    expect(rules(submission('guardian_application'))).toEqual([]);
  });

  it('refuses an id that is not derived from the signing key, naming the id the key gives', () => {
    const result = validate(submission('guardian_application', application({ requested_guardian_identifier: OTHER_GUARDIAN.guardianId })));
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([
      ['chain/guardian-id', '/record/guardian_application_content/requested_guardian_identifier'],
    ]);
    const d = result.diagnostics[0]!;
    expect(d.message).toContain(GUARDIAN.guardianId);
    expect(d.message).toContain(OTHER_GUARDIAN.guardianId);
    expect(d.hint).toContain(GUARDIAN.guardianId);
  });

  it('refuses a key hash that is not the signing key\'s, naming the right one', () => {
    const result = validate(submission('guardian_application', application({ guardian_public_key_sha256: OTHER_GUARDIAN.sha256 })));
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['chain/guardian-id']);
    expect(result.diagnostics[0]!.message).toContain(GUARDIAN.sha256);
    expect(result.diagnostics[0]!.pointer).toBe('/record/guardian_application_content/guardian_public_key_sha256');
  });

  it('an application signed by another key than the one it names: both fields, the signer\'s values', () => {
    const sub = buildSubmission('guardian_application', record('guardian_application'), OTHER, CLIENT);
    const result = validate(sub);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['chain/guardian-id', 'chain/guardian-id']);
    expect(result.diagnostics.map((d) => d.message).join('\n')).toContain(OTHER_GUARDIAN.guardianId);
    expect(result.diagnostics.map((d) => d.message).join('\n')).toContain(OTHER_GUARDIAN.sha256);
  });

  it('a malformed id is the schema\'s to report, once', () => {
    expect(rules(submission('guardian_application', application({ requested_guardian_identifier: 'guardian_x' })))).toEqual(['schema/pattern']);
  });
});

describe('chain/guardian-retirement-key', () => {
  it('passes when the registered key signs its own retirement', () => {
    expect(rules(submission('guardian_retirement'))).toEqual([]);
  });

  it('refuses a retirement signed by another key, naming both keys\' SHA-256', () => {
    const sub = buildSubmission('guardian_retirement', record('guardian_retirement'), OTHER, CLIENT);
    const result = validate(sub);
    expect(result.valid).toBe(false);
    expect(result.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([
      ['chain/guardian-retirement-key', '/record/guardian_id'],
      ['chain/guardian-retirement-key', '/record/guardian_public_key_sha256'],
    ]);
    for (const d of result.diagnostics) {
      expect(d.message).toContain(GUARDIAN.sha256); // the key the retirement names
      expect(d.message).toContain(OTHER_GUARDIAN.sha256); // the key that signed it
    }
  });

  it('refuses a guardian id that is not the signing key\'s even when the key hash is', () => {
    const result = validate(submission('guardian_retirement', record('guardian_retirement', { guardian_id: OTHER_GUARDIAN.guardianId })));
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['chain/guardian-retirement-key']);
    expect(result.diagnostics[0]!.message).toContain(GUARDIAN.guardianId);
  });
});

describe('per-type text caps (max_record_text_chars_by_type)', () => {
  const caps = recordChainLimits().max_record_text_chars_by_type!;

  it('are the public system\'s: 8,000 / 4,000 / 6,000 characters', () => {
    expect(caps).toEqual({ guardian_application: 8000, guardian_retirement: 4000, classification_update: 6000 });
  });

  it('refuse a classification update over 6,000 characters, and pass one under it', () => {
    const long = (n: number) => 'The record says a person sent the agent the link. '.repeat(n).slice(0, 2000);
    const base = content('classification_update').classification_update_content as JsonObject;
    const fat = record('classification_update', {
      agent_identity: { name_or_model: 'm'.repeat(2500), system_or_provider: 'p', self_reported: true },
      classification_update_content: { ...base, classification_reason: long(50), evidence_or_review_basis: long(50) },
    });
    const result = validate(submission('classification_update', fat));
    expect(result.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([[LIMIT_RULES.recordText, '/record']]);
    expect(result.diagnostics[0]!.message).toContain('6000');
    // The same texts in an echo (no per-type cap) are within the limits.
    expect(checkLimits(submission('echo', record('echo', { echo: long(50) + long(50) + 'm'.repeat(2500) })))).toEqual([]);
    // Under the cap: passes.
    const slim = record('classification_update', { classification_update_content: { ...base, classification_reason: long(50) } });
    expect(rules(submission('classification_update', slim))).toEqual([]);
  });

  it('count the record only, and apply per type', () => {
    const limits = { ...recordChainLimits(), max_record_text_chars_by_type: { guardian_retirement: 300 } };
    expect(checkLimits(submission('guardian_retirement'), limits).map((f) => f.rule)).toEqual([LIMIT_RULES.recordText]);
    expect(checkLimits(submission('guardian_application'), limits)).toEqual([]);
  });
});
