/**
 * Conformance with the real system's Claim Gate: every evidence-input example of ../shared/corpus/claim-gate/
 * (and its templates, tutorial and test fixture) through our gate, compared on status, allowed protocol level and
 * component levels with the example's own expectation and with REAL-GATE-OUTPUTS.json (what that system's gate
 * answered). Every difference is listed below with its reason (docs/claim-gate.md repeats them); the test fails
 * when a result changes, or when a difference has no reason or a listed reason no longer applies. The corpus lives
 * beside the repository; a clone without it skips this file with a notice.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateClaimGate } from '../../src/core/claim-gate/index.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const CORPUS = resolve(REPO_ROOT, '../shared/corpus/claim-gate');
const EXAMPLES = join(CORPUS, 'examples');
const present = existsSync(join(CORPUS, 'REAL-GATE-OUTPUTS.json'));
if (!present) console.warn(`[conformance] skipped: the claim-gate corpus is not at ${CORPUS} (it sits beside the repository, in ../shared).`);

interface Ours {
  status: string;
  level: string;
  /** Our component levels where they matter to the comparison ({} with a blocking failure). */
  components?: Record<string, string>;
  /** Why we answer differently from the real gate (status, level or a component it named). */
  differs_from_real?: string;
  /** Why we answer differently from the example's expected_claim_gate. */
  differs_from_example?: string;
}

const PLACEHOLDERS = 'a template: its limitations say "example placeholder - replace with actual limitations" (gate/placeholders blocks)';
const NO_DECLARATION = 'it requests echo_v3_with_verification_report without agent_integrity_declaration and verification_session (gate/integrity-declaration blocks)';
const FLOORS = { bitcoin_originals: 'B0', digital_mirrors: 'D0', time_anchors: 'T0', chronicle_recovery: 'C0', nft_evidence: 'N0', physical_anchor: 'P0' };

/** Our answer for each example, and why it differs where it does. */
const OURS: Record<string, Ours> = {
  'v1-authority-boundary.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, and ${NO_DECLARATION}; the real gate also refuses it (schema)` },
  'v1-boundary.json': { status: 'PASS', level: 'V1', components: FLOORS },
  'v2-minimal-bitcoin-b1.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, ${NO_DECLARATION}, and it states no authority boundary (V1 is not reached); the real gate also refuses it (schema)` },
  'v2-minimal-bitcoin.json': {
    status: 'FAIL_WITH_REASONS', level: 'V0', components: {},
    differs_from_real: 'the transaction checked is "EXAMPLE_TXID_REPLACE_ME" (gate/placeholders blocks): a placeholder was never checked on any explorer. The evidence would support V2 and B1 (evidence_supports_protocol_level V2) once a real txid is there.',
    differs_from_example: 'as for the real gate: the placeholder txid',
  },
  'v3-minimal-hash-d2.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, ${NO_DECLARATION}, and it states no authority boundary; the real gate also refuses it (schema)` },
  'v3-minimal-hash.json': {
    status: 'PASS_WITH_DOWNGRADE', level: 'V2', components: { ...FLOORS, digital_mirrors: 'D1' },
    differs_from_real: 'its hash entry has no computed_by "machine": the SHA-256 was typed by hand, so it is a self-reported reference check (V2, D1), not V3/D2 evidence (gate/self-reported-hash, gate/protocol-level). With the entry marked as the builder\'s evidence command writes it, our gate answers V3 and D2 like the real one (tested below).',
    differs_from_example: 'the hand-typed hash, as for the real gate',
  },
  'v4-script-audit.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, ${NO_DECLARATION}; its scripts have no scope_class, executed, environment or result (V4 script_audit_complete), and no hash or boundary; the real gate also refuses it (schema)` },
  'v4plus-b5-witness-extraction.json': {
    status: 'PASS_WITH_DOWNGRADE', level: 'V2', components: { ...FLOORS, bitcoin_originals: 'B5' },
    differs_from_real: 'V4+ is historical-only for new work (at most V4, DECISIONS 11 and 17); and V3 is not reached: its only hash entry has expected/computed "a]79fc5...example...0", not a SHA-256, typed by hand; nor V4 (its script is independent_reproduction, not a profile_required_script_audit) nor V4+ (no implementation_digest). The witness extraction is a reference check: V2-minimal, B5 as the real gate says.',
    differs_from_example: 'as for the real gate',
  },
  'v4plus-b6-body-hash-reproduction.json': {
    status: 'PASS_WITH_DOWNGRADE', level: 'V2', components: { ...FLOORS, bitcoin_originals: 'B6' },
    differs_from_real: 'as for v4plus-b5: V4+ is historical-only, and its hash entry is not a SHA-256 (so V3 is not reached), no script audit, no implementation_digest; B6 as the real gate says',
    differs_from_example: 'as for the real gate',
  },
  'v4plus-minimal-independent.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, ${NO_DECLARATION}; no hash entry at all (the expected D2 has no SHA-256 behind it) and V4+ is historical-only; the real gate also refuses it (schema)` },
  'v5-full-public-digital.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, ${NO_DECLARATION}; D5 is claimed with no hash entry and C5 without media evidence, and no script audit or boundary; the real gate also refuses it (schema)` },
  'v6-live-remote-p4.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, ${NO_DECLARATION}; V6 is historical-only, and P4 needs a nonce_challenge object and requested_action_angle_lighting (it has nonce_or_challenge text); the real gate also refuses it (schema)` },
  'v7-onsite-p5.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, ${NO_DECLARATION}; V7 is historical-only; the real gate also refuses it (schema)` },
  'v8-forensic-p7-candidate.json': { status: 'FAIL_WITH_REASONS', level: 'V0', components: {}, differs_from_example: `${PLACEHOLDERS}, ${NO_DECLARATION}; V8 is historical-only, and P7 needs method, model_or_tool and confidence; the real gate also refuses it (schema)` },
};

/** Templates, tutorial and test fixture: no real-gate answer; our answer and what the file says it is. */
const OTHERS: Record<string, Ours> = {
  'templates/v1-authority-boundary.template.json': { status: 'FAIL', level: 'none' },
  'templates/v2-minimal-bitcoin-b1.template.json': { status: 'FAIL', level: 'none' },
  'tutorial/v1-tutorial.json': { status: 'FAIL', level: 'none' },
  'test-fixtures/v1-passing-fixture.json': { status: 'PASS', level: 'V1', components: FLOORS },
};

const read = (file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));
/** Whether `actual` has every level `expected` names (the real outputs and examples name only some). */
function sameComponents(expected: Record<string, string>, actual: Record<string, string>): boolean {
  return Object.entries(expected).every(([k, v]) => k === 'physical_verification' || actual[k] === v);
}

/** Runs one corpus file's evidence input and checks our answer is the one listed for it. */
function runAsListed(file: string, ours: Ours) {
  const example = read(file);
  const out = evaluateClaimGate(example.evidence_input);
  expect({ status: out.status, level: out.allowed_protocol_level }).toEqual({ status: ours.status, level: ours.level });
  if (ours.components) expect(out.allowed_component_levels).toEqual(ours.components);
  return { example, out };
}

describe.skipIf(!present)('claim-gate conformance with the real system', () => {
  const real: Record<string, any> = present ? JSON.parse(readFileSync(join(CORPUS, 'REAL-GATE-OUTPUTS.json'), 'utf8')) : {};

  it('covers every example the real gate answered', () => {
    expect(Object.keys(OURS).sort()).toEqual(Object.keys(real).sort());
  });

  it.each(Object.keys(OURS))('%s', (file) => {
    const ours = OURS[file]!;
    const { example, out } = runAsListed(file, ours);

    const r = real[file].real_gate_output;
    const sameAsReal = r.status === out.status && r.allowed_protocol_level === out.allowed_protocol_level && sameComponents(r.allowed_component_levels, out.allowed_component_levels);
    expect(sameAsReal ? undefined : 'a reason', `${file}: difference from the real gate`).toBe(ours.differs_from_real === undefined ? undefined : 'a reason');

    const e = example.expected_claim_gate;
    const sameAsExample = e.allowed_protocol_level === out.allowed_protocol_level && sameComponents(e.allowed_component_levels, out.allowed_component_levels);
    expect(sameAsExample ? undefined : 'a reason', `${file}: difference from the example's expectation`).toBe(ours.differs_from_example === undefined ? undefined : 'a reason');
  });

  it.each(Object.keys(OTHERS))('%s', (file) => {
    const { example, out } = runAsListed(file, OTHERS[file]!);
    // What the file says it is: a tutorial or template must not pass unchanged; the passing fixture passes.
    const passes = out.status === 'PASS' || out.status === 'PASS_WITH_DOWNGRADE';
    expect(passes).toBe(example.example_type === 'test_fixture_passing');
    if (example.evidence_input.test_fixture === true) expect(out.recommended_record_kind).toBe('test_record');
  });

  it('v3-minimal-hash with its hash computed by the machine: V3 and D2, as the real gate answers', () => {
    const input = structuredClone(read('v3-minimal-hash.json').evidence_input);
    input.evidence.hashes[0].computed_by = 'machine';
    const out = evaluateClaimGate(input);
    const r = real['v3-minimal-hash.json'].real_gate_output;
    expect({ status: out.status, level: out.allowed_protocol_level }).toEqual({ status: r.status, level: r.allowed_protocol_level });
    expect(sameComponents(r.allowed_component_levels, out.allowed_component_levels)).toBe(true);
  });

  it('v3-minimal-hash with expected_hash_authority_class "unknown": at most V1, with a downgrade that says why, as the real gate allows (issue 23)', () => {
    // The real rules require expected_hash_authority_class_not_unknown for V3; the real gate allows at most V1 for
    // such a hash (it is no reference check either). Machine-computed or typed by hand, ours answers the same.
    for (const computedBy of ['machine', undefined]) {
      const input = structuredClone(read('v3-minimal-hash.json').evidence_input);
      input.evidence.hashes[0].expected_hash_authority_class = 'unknown';
      if (computedBy) input.evidence.hashes[0].computed_by = computedBy;
      const out = evaluateClaimGate(input);
      expect({ status: out.status, level: out.allowed_protocol_level }).toEqual({ status: 'PASS_WITH_DOWNGRADE', level: 'V1' });
      expect(out.allowed_component_levels.digital_mirrors).toBe('D1');
      expect(out.required_downgrades).toEqual([expect.objectContaining({ from: 'V3', to: 'V1', rule: 'gate/downgrade-rules:v2_unknown_hash_authority' })]);
      expect(out.required_downgrades[0]!.reason).toMatch(/authority is unknown/);
    }
  });

  it('v2-minimal-bitcoin with a real-looking txid: V2 and B1, as the real gate answers', () => {
    const input = structuredClone(read('v2-minimal-bitcoin.json').evidence_input);
    const check = input.evidence.bitcoin_checks[0];
    check.txids_checked = ['f'.repeat(64)];
    check.access_path = `https://mempool.space/tx/${'f'.repeat(64)}`;
    const out = evaluateClaimGate(input);
    const r = real['v2-minimal-bitcoin.json'].real_gate_output;
    expect({ status: out.status, level: out.allowed_protocol_level }).toEqual({ status: r.status, level: r.allowed_protocol_level });
    expect(sameComponents(r.allowed_component_levels, out.allowed_component_levels)).toBe(true);
  });
});
