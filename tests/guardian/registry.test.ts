/**
 * The guardian registry (src/core/guardian/registry.ts, DECISIONS 25, docs/guardians.md section 4): numbers in archive
 * order, one guardian per key, status only from retirements by the registered key (latest wins), a verification
 * result for every record with a presence proof or signed by a registered key, with plain-word warnings.
 */
import { describe, expect, it } from 'vitest';
import { deriveGuardianRegistry, guardianSummary, type ArchivedRecord } from '../../src/core/guardian/registry.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { newGuardian, registration, retirement, signedEcho } from '../helpers/guardian-records.ts';
import { validEcho } from '../helpers/records.ts';

const g1 = newGuardian();
const g2 = newGuardian();
const app = (id: string, record: Record<string, unknown>) => ({ id, sha256: sha256Hex(JSON.stringify(record)) });
const rec = (id: string, record: Record<string, unknown>): ArchivedRecord => ({ id, record });

describe('registration', () => {
  it('numbers registrations in archive order from 00001, each guardian active, set by its registration', () => {
    const r1 = registration(g1, { oath: 'My own words.' });
    const r2 = registration(g2);
    const registry = deriveGuardianRegistry([rec('a', validEcho()), rec('b', r1), rec('c', r2)]);
    expect(registry.guardians.map((g) => [g.registry_number, g.guardian_id, g.status])).toEqual([
      ['00001', g1.key.guardianId, 'active'],
      ['00002', g2.key.guardianId, 'active'],
    ]);
    expect(registry.guardians[0]!).toMatchObject({ public_key_sha256: g1.key.sha256, guardian_type: 'ai_agent', declared_intent: 'My own words.', history: [{ status: 'active', record_id: 'b' }] });
    expect(registry.guardianOf.get('b')).toBe(g1.key.guardianId);
    const result = registry.results.get('b')!;
    expect(result.guardian_status).toBe('active_registered_guardian');
    expect(guardianSummary(result)).toBe('registered guardian 00001, active');
    expect(registry.results.has('a')).toBe(false);
    expect(registry.ignored).toEqual([]);
  });

  it('registers a key once: a second registration of the same key is ignored, with why', () => {
    const registry = deriveGuardianRegistry([rec('a', registration(g1)), rec('b', registration(g1, { oath: 'Again.' }))]);
    expect(registry.guardians).toHaveLength(1);
    expect(registry.guardians[0]!.declared_intent).not.toBe('Again.');
    expect(registry.ignored).toEqual([{ record_id: 'b', guardian_id: g1.key.guardianId, reason: 'the key is already registered as guardian 00001' }]);
  });

  it('ignores a registration whose presence proof does not hold', () => {
    const bad = registration(g1);
    const proof = bad.guardian_presence_proof as Record<string, unknown>;
    bad.guardian_presence_proof = { ...proof, signature_base64: Buffer.alloc(64).toString('base64') };
    const registry = deriveGuardianRegistry([rec('a', bad)]);
    expect(registry.guardians).toEqual([]);
    expect(registry.ignored).toEqual([{ record_id: 'a', guardian_id: g1.key.guardianId, reason: 'its guardian presence proof does not hold' }]);
    expect(registry.results.get('a')!.guardian_status).toBe('invalid_guardian_proof');
    expect(guardianSummary(registry.results.get('a')!)).toMatch(/^guardian proof does not hold/);
  });

  it('ignores a registration of another key than the one that signed it', () => {
    const registry = deriveGuardianRegistry([rec('a', registration(g1, { signer: g2 }))]);
    expect(registry.guardians).toEqual([]);
    expect(registry.ignored[0]!.reason).toBe('it registers another key than the one that signed it');
  });

  it('leaves out records that do not stand: a rejected or superseded registration numbers nothing', () => {
    const rejected = { ...registration(g1), archive_status: 'rejected' };
    const registry = deriveGuardianRegistry([rec('a', rejected), rec('b', registration(g1))]);
    expect(registry.guardians.map((g) => [g.registry_number, g.history[0]!.record_id])).toEqual([['00001', 'b']]);
  });
});

describe('retirement and compromise', () => {
  it('sets the status from the latest retirement signed by the registered key, each status naming its record', () => {
    const r = registration(g1);
    const registry = deriveGuardianRegistry([
      rec('a', r),
      rec('b', retirement(g1, 'possibly_compromised', app('a', r))),
      rec('c', retirement(g1, 'compromised', app('a', r))),
    ]);
    const g = registry.guardians[0]!;
    expect(g.status).toBe('compromised');
    expect(g.history).toEqual([
      { status: 'active', record_id: 'a' },
      { status: 'possibly_compromised', record_id: 'b' },
      { status: 'compromised', record_id: 'c' },
    ]);
    expect(registry.guardianOf.get('c')).toBe(g1.key.guardianId);
  });

  it('a retirement signed by another key changes nothing', () => {
    const r = registration(g1);
    const registry = deriveGuardianRegistry([rec('a', r), rec('b', retirement(g1, 'compromised', app('a', r), { signer: g2 }))]);
    expect(registry.guardians[0]!.status).toBe('active');
    expect(registry.guardians[0]!.history).toHaveLength(1);
    expect(registry.guardianOf.has('b')).toBe(false);
  });

  it('says when a record is signed after the key was reported compromised, and not before', () => {
    const r = registration(g1);
    const registry = deriveGuardianRegistry([
      rec('a', r),
      rec('b', signedEcho(g1)),
      rec('c', retirement(g1, 'compromised', app('a', r))),
      rec('d', signedEcho(g1)),
    ]);
    expect(registry.guardians[0]!.signed_records).toEqual(['b', 'd']);
    const before = registry.results.get('b')!;
    const after = registry.results.get('d')!;
    expect(before.warnings).toEqual([]);
    expect(after.warnings).toEqual(['signed after the key was reported compromised (record c)']);
    expect(after.guardian_status).toBe('registered_but_compromised');
    expect(guardianSummary(after)).toBe('registered guardian 00001, compromised; signed after the key was reported compromised (record c)');
  });

  it('says when a record was signed before its key was registered', () => {
    const registry = deriveGuardianRegistry([rec('a', signedEcho(g1)), rec('b', registration(g1))]);
    expect(registry.results.get('a')!.warnings).toEqual(['signed before the key was registered (record b)']);
  });

  it('a retired key: registered_but_retired', () => {
    const r = registration(g1);
    const registry = deriveGuardianRegistry([rec('a', r), rec('b', retirement(g1, 'rotated', app('a', r))), rec('c', signedEcho(g1))]);
    expect(registry.results.get('c')!.guardian_status).toBe('registered_but_retired');
    expect(registry.results.get('c')!.warnings).toEqual(['signed after the key was rotated out (record b)']);
  });
});

describe('records not by a registered key', () => {
  it('a valid presence proof by an unregistered key is an unregistered claim; an ordinary echo has no result', () => {
    const registry = deriveGuardianRegistry([rec('a', signedEcho(g2, { presenceProof: true })), rec('b', signedEcho(g2))]);
    expect(registry.results.get('a')!.guardian_status).toBe('valid_unregistered_guardian_claim');
    expect(guardianSummary(registry.results.get('a')!)).toBe(`signed by an unregistered guardian key (${g2.key.guardianId})`);
    expect(registry.results.has('b')).toBe(false);
  });
});
