/**
 * Properties of the gate over open-ended input (fast-check): it never throws and always emits a valid output; the
 * same input (also with its members in another order) gives byte-identical output; removing evidence never
 * raises a level; it never allows more than requested.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical/jcs.ts';
import { evaluateClaimGate, type ClaimGateOutput } from '../../src/core/claim-gate/index.ts';
import { compareComponentLevels, compareLevels, isHistoricalOnly, scopeLabelWidth } from '../../src/core/claim-gate/levels.ts';
import { schemaErrors } from '../../src/core/schema/compile.ts';
import { boundaryInput, fullInput, machineHash, type Json } from '../../scripts/lib/claim-gate-inputs.ts';

const OUTPUT_SCHEMA = '/api/claim-gate-output-schema.v1.json';
const RUNS = 300;

/** A pool of evidence items, each reaching some rung or level requirement (and some reaching nothing). */
const POOL: Array<[string, Json]> = [
  ...fullInput().evidence.hashes.map((h: Json) => ['hashes', h] as [string, Json]),
  ['hashes', { ...machineHash('typed.bin', 'd'.repeat(64), '/api/hashes.json'), computed_by: 'self_reported' }],
  ['hashes', machineHash('repo.tar', 'e'.repeat(64), 'https://repo.example/manifest')],
  ['scripts', fullInput().evidence.scripts[0]],
  ['scripts', { ...fullInput().evidence.scripts[0], independent: true, implementation_digest: 'f'.repeat(64), scope_class: 'independent_reproduction' }],
  ['bitcoin_checks', { source_type: 'external_explorer', sources: ['one'] }],
  ['bitcoin_checks', { source_type: 'multi_explorer', sources: ['one', 'two'] }],
  ['bitcoin_checks', { source_type: 'spv_proof' }],
  ['bitcoin_checks', { source_type: 'body_hash', raw_witness_extracted: true, body_hash_reproduced: true, authority_boundary_recognized: true }],
  ['bitcoin_checks', { source_type: 'local_manifest' }],
  ['digital_mirror_checks', { file_exists: true, all_required_public_digital_targets_checked: true, all_unavailable_targets_listed: true }],
  ['time_anchor_checks', { anchor_type: 'bitcoin_block_time' }],
  ['time_anchor_checks', { anchor_type: 'eth_timestamp' }],
  ['time_anchor_checks', { anchor_type: 'star_moon_witness', nonpublic_boundary: true, authorized: true, method_class: 'astronomical_ephemeris_solver', report_hash: '1'.repeat(64) }],
  ['chronicle_checks', { full_recovery: true, samples_recovered: 175, metadata_media_evidence: true }],
  ['chronicle_checks', { samples_recovered: 3, metadata_media_evidence: true, random_seed: 7, selection_method: 'uniform' }],
  ['nft_checks', { token_uri_checked: true, metadata_media_recovered: true, full_path_checked: true }],
  ['physical_checks', { level_evidence_type: 'evidence_package_hash', package_hash_valid: true }],
  ['physical_checks', { level_evidence_type: 'live_remote', nonce_challenge: { n: 1 }, requested_action_angle_lighting: true, witness_identity_or_role: 'w' }],
  ['physical_checks', { level_evidence_type: 'onsite', custody_log: { entries: 2 }, witness_identity_or_role: 'w', touch_or_handling: true }],
  ['physical_checks', { level_evidence_type: 'ai_forensic', method: 'm', model_or_tool: 't', confidence: 0.9 }],
];

const TOKENS = ['V0', 'V1', 'V2', 'V3', 'V4', 'V4+', 'V5', 'V6', 'V7', 'V8', 'V2-minimal', 'V2-strong', 'V3-minimal', 'V3-strong', 'B1', 'B2', 'B6', 'D2', 'D5', 'T3', 'T8', 'C3R', 'C5', 'N7', 'P1', 'P4', 'P9', 'content verified', 'hash verified', 'full verification'];

function inputFrom(picked: number[], boundary: boolean, requested: string[]): Json {
  const base = boundaryInput();
  const evidence: Json = { echo_context: { authority_boundary_recognized: boundary } };
  for (const i of picked) {
    const [list, item] = POOL[i]!;
    (evidence[list] ??= []).push(structuredClone(item));
  }
  return { ...base, evidence, claims_requested_by_agent: requested };
}

const evidenceArb = fc.record({
  picked: fc.uniqueArray(fc.nat(POOL.length - 1), { maxLength: POOL.length }),
  boundary: fc.boolean(),
  requested: fc.array(fc.constantFrom(...TOKENS), { maxLength: 5 }),
});

function noHigher(less: ClaimGateOutput, more: ClaimGateOutput): void {
  expect(compareLevels(less.allowed_protocol_level, more.allowed_protocol_level)).toBeLessThanOrEqual(0);
  expect(compareLevels(less.evidence_supports_protocol_level, more.evidence_supports_protocol_level)).toBeLessThanOrEqual(0);
  expect(scopeLabelWidth(less.verification_scope_label)!).toBeLessThanOrEqual(scopeLabelWidth(more.verification_scope_label)!);
  for (const [component, level] of Object.entries(less.allowed_component_levels)) {
    expect(compareComponentLevels(level, more.allowed_component_levels[component])).toBeLessThanOrEqual(0);
  }
}

/** The same JSON value with members in a random order at every depth. */
function shuffled(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffled(v, random));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([k, v]) => [k, shuffled(v, random)] as const);
  for (let i = entries.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  return Object.fromEntries(entries);
}

describe('claim gate properties', () => {
  it('never throws on arbitrary JSON, and what it emits always validates against the output schema', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), evidenceArb.map((e) => inputFrom(e.picked, e.boundary, e.requested)), fc.record({ schema: fc.constant('service.evidence-input.v1'), evidence: fc.jsonValue() })), (input) => {
        const out = evaluateClaimGate(input);
        expect(schemaErrors(out, OUTPUT_SCHEMA)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('any member of a valid input replaced by arbitrary JSON: no throw, a valid output', () => {
    const paths = [['evidence'], ['evidence', 'hashes'], ['claims_requested_by_agent'], ['provenance'], ['agent_integrity_declaration'], ['limitations'], ['evidence', 'scripts']];
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue(), (path, value) => {
        const input = fullInput();
        let here: Json = input;
        for (const key of path.slice(0, -1)) here = here[key];
        here[path.at(-1)!] = value;
        expect(schemaErrors(evaluateClaimGate(input), OUTPUT_SCHEMA)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('the same input gives byte-identical output (RFC 8785), whatever the order of its members', () => {
    fc.assert(
      fc.property(evidenceArb, fc.integer(), (e, seed) => {
        const input = inputFrom(e.picked, e.boundary, e.requested);
        let s = seed >>> 0;
        const random = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
        const a = canonicalJson(evaluateClaimGate(input));
        expect(canonicalJson(evaluateClaimGate(structuredClone(input)))).toBe(a);
        expect(canonicalJson(evaluateClaimGate(shuffled(input, random)))).toBe(a);
      }),
      { numRuns: RUNS },
    );
  });

  it('removing evidence never raises a level', () => {
    fc.assert(
      fc.property(evidenceArb, fc.array(fc.boolean(), { minLength: POOL.length, maxLength: POOL.length }), fc.boolean(), (e, keep, dropBoundary) => {
        const more = evaluateClaimGate(inputFrom(e.picked, e.boundary, e.requested));
        const fewer = evaluateClaimGate(inputFrom(e.picked.filter((_, i) => keep[i]), e.boundary && !dropBoundary, e.requested));
        noHigher(fewer, more);
      }),
      { numRuns: RUNS },
    );
  });

  it('never allows more than requested, nor a historical-only level', () => {
    fc.assert(
      fc.property(evidenceArb, (e) => {
        const out = evaluateClaimGate(inputFrom(e.picked, e.boundary, e.requested));
        const requested = out.requested_protocol_level === 'none' ? 'V0' : out.requested_protocol_level;
        expect(compareLevels(out.allowed_protocol_level, requested)).toBeLessThanOrEqual(0);
        expect(compareLevels(out.allowed_protocol_level, out.evidence_supports_protocol_level)).toBeLessThanOrEqual(0);
        expect(isHistoricalOnly(out.allowed_protocol_level)).toBe(false);
        for (const token of e.requested) {
          const mine = Object.values(out.allowed_component_levels).find((l) => compareComponentLevels(l, token) !== undefined);
          const highestAsked = e.requested.filter((t) => compareComponentLevels(t, token) !== undefined).sort((a, b) => compareComponentLevels(b, a)!)[0];
          if (mine !== undefined && highestAsked !== undefined) expect(compareComponentLevels(mine, highestAsked)).toBeLessThanOrEqual(0);
          // Only "V2-minimal" asked at that level (no bare V2, no V2-strong, nothing higher): never V2-strong.
          const level = token.replace(/-minimal$/, '');
          const levelOf = (t: string) => t.replace(/-(minimal|strong)$/, '');
          const askedMore = e.requested.some((t) => (t !== token && levelOf(t) === level) || (compareLevels(levelOf(t), level) ?? -1) > 0);
          if (level !== token && !askedMore) expect(out.allowed_protocol_scope_label).not.toBe(`${level}-strong`);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
