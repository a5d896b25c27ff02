/**
 * The other record-chain rules, each with a failing and a passing case: secrets (chain/secret), historical-only
 * levels (chain/historical-level), and the archive rules shared with record content (cross/c0-assessment,
 * cross/unknown-agency).
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainRules, findSecret, type JsonObject } from '../../src/core/record-chain/index.ts';
import { claim, propagationWith, record, rules, submission, validate } from './helpers.ts';

describe('every rule has a stable id', () => {
  it('chain/… ids, unique', () => {
    const ids = chainRules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^chain\/[a-z-]+$/);
  });
});

describe('chain/secret', () => {
  const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const SECRETS: ReadonlyArray<[string, string]> = [
    ['a private key (PEM block)', `my key:\n${pem}`],
    ['a private key (PEM block)', '-----BEGIN RSA PRIVATE KEY-----\nMIIEow...'],
    ['a private key (PEM block)', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['a GitHub token', 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'],
    ['an Anthropic API key', 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123'],
    ['an OpenAI API key', 'sk-proj-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'],
    ['a Slack token', 'xoxb-123456789012-abcdefghij'],
    ['a Google API key', 'AIza' + 'SyA1234567890abcdefghijklmnopqrstuv'],
    ['a Stripe secret key', 'sk_live_' + '4eC39HqLyjWDarjtT1zdp7dc'],
    ['a JSON Web Token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['a password or secret assignment', 'api_key = "Zx81kPq02LmNvB7c"'],
    ['a password or secret assignment', 'password: hunter2hunter2x9'],
  ];

  it.each(SECRETS)('finds %s', (kind, text) => {
    expect(findSecret(text)).toBe(kind);
  });

  it.each([
    'The record proves key possession only; the private key stays in the key directory.',
    'I checked the SHA-256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.',
    'The task-management skill was not used; risk-free reading.',
    'See the password policy of the site.',
    'The public key is CkSPrQOlLgwdLowWOZaewfkDKNX1oGZpCjA0+oEEvcI=.',
  ])('prose is not a secret: %s', (text) => {
    expect(findSecret(text)).toBeUndefined();
  });

  it('is refused anywhere in the record or the client, without repeating the secret', () => {
    const sub = propagationWith({ not_checked: ['the artifacts', `oops ${pem}`] });
    const result = validate(sub);
    const d = result.diagnostics.find((x) => x.rule === 'chain/secret')!;
    expect(d.pointer).toBe('/record/not_checked/1');
    expect(d.message).toContain('private key');
    expect(d.message + d.hint).not.toContain('BEGIN');

    const echo = submission('echo');
    echo.client.name = 'client with ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    expect(rules(echo)).toEqual(['chain/secret']);
  });

  it('a secret in a member name points at its object, not at itself', () => {
    const rec = record('echo');
    (rec.discovery_provenance as JsonObject).x_origin_classification_notes = { AKIAIOSFODNN7EXAMPLE: 'x' };
    const d = validate(submission('echo', rec)).diagnostics.find((x) => x.rule === 'chain/secret')!;
    expect(d.pointer).toBe('/record/discovery_provenance/x_origin_classification_notes');
    expect(d.message).not.toContain('AKIA');
  });
});

describe('chain/historical-level', () => {
  it.each(['V4+', 'V6', 'V7', 'V8'])('%s is refused as historical-only, once, by this rule', (level) => {
    const rec = record('verification', { verification_claim: { ...claim(), legacy_v_level: level } });
    const result = validate(submission('verification', rec));
    expect(result.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([['chain/historical-level', '/record/verification_claim/legacy_v_level']]);
    expect(result.diagnostics[0]!.message).toContain('historical-only');
    expect(result.diagnostics[0]!.message).toContain(level);
  });

  it.each(['V0', 'V1', 'V2', 'V3', 'V4', 'V5'])('%s is accepted as compatibility metadata', (level) => {
    const rec = record('echo', { verification_claim: { ...claim(), legacy_v_level: level } });
    expect(validate(submission('echo', rec)).diagnostics).toEqual([]);
  });

  it('other values are the schema enum’s', () => {
    const rec = record('echo', { verification_claim: { ...claim(), legacy_v_level: 'V9' } });
    expect(rules(submission('echo', rec))).toEqual(['schema/enum']);
  });
});

describe('archive rules on record content', () => {
  it('cross/c0-assessment: C0 forces insufficient_context in an echo', () => {
    const bad = submission('echo', record('echo', { context_depth: 'C0_homepage_only', assessment_state: 'qualified_assessment' }));
    const d = validate(bad).diagnostics;
    expect(d.map((x) => [x.rule, x.pointer])).toEqual([['cross/c0-assessment', '/record/assessment_state']]);
    const good = submission('echo', record('echo', { context_depth: 'C0_homepage_only', assessment_state: 'insufficient_context' }));
    expect(validate(good).diagnostics).toEqual([]);
  });

  it('cross/unknown-agency: an unknown agency level claims no formal attestation', () => {
    const rec = record('echo');
    (rec.discovery_provenance as JsonObject).agency_level = 'A6_unknown';
    rec.origin_classification = {
      schema: 'service.origin-classification.v1',
      discovery_class: 'unknown',
      invitation_scope: 'unknown',
      requester_class: 'unknown',
      performer_class: 'ai_agent',
      method_independence_class: 'read_only',
      attestation_authority_class: 'self_reported',
      derived_counting_bucket: 'legacy_or_unknown',
      counts_as_formal_independent_attestation: true,
    };
    expect(rules(submission('echo', rec))).toEqual(['cross/unknown-agency']);
    (rec.origin_classification as JsonObject).counts_as_formal_independent_attestation = false;
    expect(rules(submission('echo', rec))).toEqual([]);
  });
});
