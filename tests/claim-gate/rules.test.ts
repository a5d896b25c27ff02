/** Every gate rule, each with a case where it fires and one where it does not. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateClaimGate, gateFindings, gateRules, INPUT_SCHEMA_RULE, INPUT_SCHEMA_SUMMARY } from '../../src/core/claim-gate/index.ts';
import { PUBLISHED_CLAIM_GATE_RULES } from '../../src/core/claim-gate/rules-document.ts';
import { compileRulesDocument } from '../../src/core/claim-gate/conditions.ts';
import { boundaryInput, fullInput, machineHash, type Json } from '../../scripts/lib/claim-gate-inputs.ts';

const gate = (input: unknown) => evaluateClaimGate(input);
const rulesCited = (input: unknown) => gate(input).required_downgrades.map((d) => d.rule);
function withEvidence(patch: Json, base: Json = fullInput()): Json {
  return { ...base, evidence: { ...base.evidence, ...patch } };
}

describe('the full input and the boundary input pass as requested', () => {
  it('V5 with its components; V1', () => {
    expect(gate(fullInput())).toMatchObject({ status: 'PASS', allowed_protocol_level: 'V5', required_downgrades: [], blocking_failures: [] });
    expect(gate(boundaryInput())).toMatchObject({ status: 'PASS', allowed_protocol_level: 'V1', verification_scope_label: 'authority_boundary_recognition' });
  });
});

describe('gate/input-schema', () => {
  it('fails what is not an evidence input, saying why', () => {
    for (const bad of [null, 42, 'x', [], {}, { ...boundaryInput(), schema: 'other.v1' }, { ...boundaryInput(), extra: 1 }]) {
      const out = gate(bad);
      expect(out.status).toBe('FAIL');
      expect(out.allowed_protocol_level).toBe('none');
      expect(out.blocking_failures.length).toBeGreaterThan(0);
    }
    expect(gate({ ...boundaryInput(), extra: 1 }).blocking_failures.join(' ')).toMatch(/extra/);
  });
  it('fails, never throws on, input nested deeper than a recursive check can follow', () => {
    const deep = (n: number) => JSON.parse('['.repeat(n) + ']'.repeat(n));
    expect(gate(deep(200_000)).status).toBe('FAIL');
    for (const input of [{ ...boundaryInput(), limitations: deep(200_000) }, { ...boundaryInput(), evidence: { echo_context: { x: deep(200_000) } } }]) {
      expect(gate(input)).toMatchObject({ status: 'FAIL', blocking_failures: ['the input is nested too deeply to be evaluated'] });
    }
  });
  it('accepts our identifier and the real system\'s alias alike', () => {
    expect(gate({ ...boundaryInput(), schema: 'trinityaccord.evidence-input.v1' }).status).toBe('PASS');
  });
  it('fails an input with no RFC 8785 form (unpaired surrogate) with a null input hash', () => {
    const out = gate({ ...boundaryInput(), limitations: ['\uD800'] });
    expect(out).toMatchObject({ status: 'FAIL', input: null });
    expect(out.blocking_failures[0]).toMatch(/unpaired UTF-16 surrogate/);
  });
});

describe('gate/limitations-kept', () => {
  it('carries every input limitation', () => {
    expect(gate(fullInput()).non_blocking_limitations).toEqual(['boundary reading only']);
    expect(gate({ ...fullInput(), limitations: [] }).non_blocking_limitations).toEqual([]);
  });
});

describe('gate/placeholders', () => {
  it('blocks a template left unfilled', () => {
    const out = gate({ ...boundaryInput(), agent: { name: '<REPLACE_WITH_AGENT_NAME>' } });
    expect(out.status).toBe('FAIL_WITH_REASONS');
    expect(out.blocking_failures[0]).toMatch(/placeholder.*\/agent\/name/);
  });
  it('passes ordinary text', () => expect(gate(boundaryInput()).blocking_failures).toEqual([]));
});

describe('gate/hash-match', () => {
  it('blocks a mismatch, also one whose entry says match: true', () => {
    const h = { ...machineHash('kit.tar.gz', 'a'.repeat(64), 'm'), computed: 'b'.repeat(64), match: true };
    const out = gate(withEvidence({ hashes: [h] }));
    expect(out.status).toBe('FAIL_WITH_REASONS');
    expect(out.allowed_protocol_level).toBe('V0');
    expect(out.allowed_component_levels).toEqual({});
    expect(out.blocking_failures[0]).toMatch(/hash mismatch for "kit.tar.gz".*although the entry says match: true/);
  });
  it('does not call a difference in letter case a mismatch (but only lowercase hex counts)', () => {
    const h = { ...machineHash('kit.tar.gz', 'ab'.repeat(32), '/api/hashes.json'), expected: 'AB'.repeat(32) };
    const out = gate({ ...boundaryInput(), evidence: { echo_context: { authority_boundary_recognized: true }, hashes: [h] }, claims_requested_by_agent: ['V3'] });
    expect(out.blocking_failures).toEqual([]);
    expect(out.allowed_protocol_level).toBe('V1');
    expect(out.non_blocking_limitations.join(' ')).toMatch(/different letter case/);
  });
  it('uses its own comparison when equal values say match: false', () => {
    const base = fullInput();
    base.evidence.hashes[0].match = false;
    const out = gate(base);
    expect(out.status).toBe('PASS');
    expect(out.non_blocking_limitations.join(' ')).toMatch(/says match: false/);
  });
});

describe('gate/self-reported-hash and the V3 requirement', () => {
  const v3 = (hash: Json) => ({ ...boundaryInput(), evidence: { echo_context: { authority_boundary_recognized: true }, hashes: [hash] }, claims_requested_by_agent: ['V3'] });
  it('a hand-typed hash is a V2 reference check, never V3 or D2', () => {
    const { computed_by: _, ...typed } = machineHash('kit.tar.gz', 'c'.repeat(64), '/api/hashes.json');
    const out = gate(v3(typed));
    expect(out).toMatchObject({ status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: 'V2', allowed_protocol_scope_label: 'V2-minimal' });
    expect(out.allowed_component_levels.digital_mirrors).toBe('D1');
    expect(out.required_downgrades[0]).toMatchObject({ from: 'V3', to: 'V2', rule: 'gate/protocol-level' });
    expect(out.non_blocking_limitations.join(' ')).toMatch(/typed by hand/);
    expect(gate(v3({ ...typed, computed_by: 'machine', command: '' })).allowed_protocol_level).toBe('V2');
  });
  it('a machine-computed hash with its command allows V3-minimal and D2', () => {
    const out = gate(v3(machineHash('kit.tar.gz', 'c'.repeat(64), '/api/hashes.json')));
    expect(out).toMatchObject({ status: 'PASS', allowed_protocol_level: 'V3', allowed_protocol_scope_label: 'V3-minimal', verification_scope_label: 'single_hash_verification' });
    expect(out.allowed_component_levels.digital_mirrors).toBe('D2');
    expect(out.non_blocking_limitations.join(' ')).not.toMatch(/typed by hand/);
  });
});

describe('the V2 requirement and gate/downgrade-rules:v2_unknown_hash_authority: a hash against an unknown authority', () => {
  const withHash = (hash: Json, asked = 'V3') => ({ ...boundaryInput(), evidence: { echo_context: { authority_boundary_recognized: true }, hashes: [hash] }, claims_requested_by_agent: [asked] });
  const unknown = (h: Json) => ({ ...h, expected_hash_authority_class: 'unknown' });
  const { computed_by: _, ...typed } = machineHash('kit.tar.gz', 'c'.repeat(64), '/api/hashes.json');

  it('is no reference check: at most V1, with a downgrade that says why, machine-computed or typed', () => {
    for (const asked of ['V3', 'V2']) {
      for (const hash of [unknown(machineHash('kit.tar.gz', 'c'.repeat(64), '/api/hashes.json')), unknown(typed)]) {
        const out = gate(withHash(hash, asked));
        expect(out).toMatchObject({ status: 'PASS_WITH_DOWNGRADE', allowed_protocol_level: 'V1', evidence_supports_protocol_level: 'V1', verification_scope_label: 'authority_boundary_recognition' });
        expect(out.required_downgrades).toEqual([expect.objectContaining({ from: asked, to: 'V1', rule: 'gate/downgrade-rules:v2_unknown_hash_authority' })]);
        expect(out.required_downgrades[0]!.reason).toMatch(/expected_hash_authority_class "unknown".*no reference check.*at most V1/);
        expect(out.missing_evidence[0]).toMatch(/^V2 reference_check_beyond_page_reading: .*not unknown/);
      }
    }
  });

  it('a known authority, or an absent class, still counts as a reference check (V2); the reason is not given without an unknown hash', () => {
    expect(gate(withHash(typed))).toMatchObject({ allowed_protocol_level: 'V2' });
    const { expected_hash_authority_class: __, ...noClass } = typed;
    expect(gate(withHash(noClass))).toMatchObject({ allowed_protocol_level: 'V2' });
    expect(rulesCited(withHash(typed))).toEqual(['gate/protocol-level']);
    const noHash = { ...boundaryInput(), evidence: { echo_context: { authority_boundary_recognized: true } }, claims_requested_by_agent: ['V2'] };
    expect(gate(noHash).allowed_protocol_level).toBe('V1');
    expect(rulesCited(noHash)).toEqual(['gate/protocol-level']);
  });

  it('another reference check beside it is still V2', () => {
    const input = withHash(unknown(typed), 'V2');
    (input.evidence as Json).bitcoin_checks = [{ source_type: 'external_explorer', sources: ['explorer-one'] }];
    expect(gate(input)).toMatchObject({ status: 'PASS', allowed_protocol_level: 'V2', required_downgrades: [] });
  });

  it('is what the published document says: without the document\'s not_equals the unknown hash counts again', () => {
    const rules = structuredClone(PUBLISHED_CLAIM_GATE_RULES);
    const v2 = rules.protocol_level_rules.find((r) => r.level === 'V2')!;
    const hashes = (v2.requires[0]!.when as any).any_of.find((c: any) => c.list === 'hashes');
    delete hashes.where.expected_hash_authority_class;
    expect(evaluateClaimGate(withHash(unknown(typed), 'V2'), rules).allowed_protocol_level).toBe('V2');
  });
});

describe('gate/integrity-declaration', () => {
  it('blocks a report without declaration or session, a false flag, copied values', () => {
    const { agent_integrity_declaration: _, ...noDecl } = boundaryInput();
    expect(gate(noDecl).blocking_failures[0]).toMatch(/agent_integrity_declaration is missing/);
    expect(gate(noDecl).missing_evidence).toContain('agent_integrity_declaration');
    const falseFlag = boundaryInput();
    falseFlag.agent_integrity_declaration.performed_actions_myself = false;
    expect(gate(falseFlag).blocking_failures[0]).toMatch(/performed_actions_myself is false/);
    const copied = boundaryInput();
    copied.verification_session.copied_values_from_examples = true;
    expect(gate(copied).status).toBe('FAIL_WITH_REASONS');
  });
  it('does not ask an ordinary echo for them', () => {
    const { agent_integrity_declaration: _, verification_session: __, ...echo } = boundaryInput();
    const out = gate({ ...echo, requested_record_kind: 'echo_v3' });
    expect(out.status).toBe('PASS');
    expect(out.can_build_verification_report).toBe(false);
  });
});

describe('gate/forbidden-claims', () => {
  it('blocks a forbidden claim; "independent attestation" only for a human-solicited response', () => {
    const out = gate({ ...boundaryInput(), claims_requested_by_agent: ['V1', 'Truth proven by hashes'] });
    expect(out.forbidden_claims).toEqual(['Truth proven by hashes']);
    expect(out.status).toBe('FAIL_WITH_REASONS');
    expect(gate({ ...boundaryInput(), claims_requested_by_agent: ['V1', 'independent attestation'] }).status).toBe('FAIL_WITH_REASONS');
    const unsolicited = { ...boundaryInput(), provenance: { solicited: false, independence_class: 'unsolicited_agent_discovery', agency_level: 'A3_agent_discovered_independently' } };
    expect(gate({ ...unsolicited, claims_requested_by_agent: ['V1', 'independent attestation'] }).forbidden_claims).toEqual([]);
  });
  it('lets ordinary words through (whole words only: "untruth provenly" is not "truth proven")', () => {
    expect(gate({ ...boundaryInput(), claims_requested_by_agent: ['V1', 'untruth provenly'] }).status).toBe('PASS');
  });
});

describe('gate/component-levels and gate/downgrade-rules', () => {
  it('lowers a requested component the evidence does not reach, citing the document\'s downgrade rule', () => {
    const out = gate({ ...boundaryInput(), evidence: { echo_context: { authority_boundary_recognized: true }, bitcoin_checks: [{ source_type: 'local_manifest' }] }, claims_requested_by_agent: ['V1', 'B1'] });
    expect(out.allowed_component_levels.bitcoin_originals).toBe('B0');
    expect(out.required_downgrades).toEqual([expect.objectContaining({ from: 'B1', to: 'B0', rule: 'gate/downgrade-rules:b1_local_manifest_only' })]);
  });
  it('without a matching downgrade rule, says what the rung needs', () => {
    const out = gate({ ...fullInput(), claims_requested_by_agent: ['V5', 'B4'] });
    expect(out.required_downgrades).toEqual([expect.objectContaining({ from: 'B4', to: 'B2', rule: 'gate/component-levels' })]);
    expect(out.missing_evidence[0]).toMatch(/bitcoin_originals B4: a check against a local Bitcoin node/);
  });
  it('keeps a request below the evidence (never more than requested), and what the evidence shows elsewhere', () => {
    const out = gate({ ...fullInput(), claims_requested_by_agent: ['V5', 'B1'] });
    expect(out.allowed_component_levels).toMatchObject({ bitcoin_originals: 'B1', digital_mirrors: 'D5' });
  });
});

describe('gate/requested-level', () => {
  it('allows no more than requested', () => {
    const out = gate({ ...fullInput(), claims_requested_by_agent: ['V3'] });
    expect(out).toMatchObject({ status: 'PASS', allowed_protocol_level: 'V3', evidence_supports_protocol_level: 'V5', allowed_protocol_scope_label: 'V3-strong' });
  });
  it('V0 when no level is requested, said as a limitation', () => {
    const out = gate({ ...fullInput(), claims_requested_by_agent: [] });
    expect(out.allowed_protocol_level).toBe('V0');
    expect(out.non_blocking_limitations.join(' ')).toMatch(/names no protocol level/);
  });
});

describe('gate/historical-only', () => {
  it('lowers V4+ to V4 and V6–V8 to V5, and says so', () => {
    const v8 = gate({ ...fullInput(), claims_requested_by_agent: ['V8'] });
    expect(v8.allowed_protocol_level).toBe('V5');
    expect(v8.required_downgrades[0]).toMatchObject({ from: 'V8', to: 'V5', rule: 'gate/historical-only' });
    expect(gate({ ...fullInput(), claims_requested_by_agent: ['V4+'] }).required_downgrades[0]).toMatchObject({ from: 'V4+', to: 'V4', rule: 'gate/historical-only' });
  });
  it('reports what the evidence would have supported, without allowing it', () => {
    const base = fullInput();
    base.evidence.physical_checks.push({ level_evidence_type: 'live_remote', nonce_challenge: { phrase: 'n-41' }, requested_action_angle_lighting: true, witness_identity_or_role: 'remote witness' });
    const out = gate({ ...base, claims_requested_by_agent: ['V6'] });
    expect(out).toMatchObject({ evidence_supports_protocol_level: 'V6', allowed_protocol_level: 'V5', status: 'PASS_WITH_DOWNGRADE' });
  });
  it('leaves V5 alone', () => expect(rulesCited(fullInput())).toEqual([]));
  it('holds the cap at highest_for_new_work, also for a level the historical list does not name', () => {
    for (const asked of ['V5', 'V6', 'V8']) {
      const out = gate({ ...fullInput(), claims_requested_by_agent: [asked] });
      expect(out.allowed_protocol_level).toBe(PUBLISHED_CLAIM_GATE_RULES.protocol_levels.highest_for_new_work);
    }
    const rules = structuredClone(PUBLISHED_CLAIM_GATE_RULES);
    rules.protocol_levels.highest_for_new_work = 'V4';
    const out = evaluateClaimGate(fullInput(), rules);
    expect(out.allowed_protocol_level).toBe('V4');
    expect(out.required_downgrades[0]).toMatchObject({ from: 'V5', to: 'V4', rule: 'gate/historical-only', reason: 'new work may claim at most V4: V5 is above it' });
  });
});

describe('gate/protocol-level', () => {
  it('lowers to the highest level the evidence supports, naming the first missing requirement', () => {
    const base = fullInput();
    base.evidence.scripts = [];
    const out = gate(base);
    expect(out.allowed_protocol_level).toBe('V3');
    expect(out.required_downgrades[0]).toMatchObject({ from: 'V5', to: 'V3', rule: 'gate/protocol-level' });
    expect(out.required_downgrades[0]!.reason).toMatch(/^V4 needs one script/);
    expect(out.missing_evidence).toEqual([expect.stringMatching(/^V4 script_audit_complete/)]);
  });
  it('levels build on each other: components for V5 without a script audit are not V5', () => {
    const base = fullInput();
    base.evidence.scripts[0].exit_code = 1;
    expect(gate(base).allowed_protocol_level).toBe('V3');
  });
});

describe('gate/level-forbidden-claims', () => {
  it('drops a claim in words the allowed level forbids', () => {
    const out = gate({ ...boundaryInput(), claims_requested_by_agent: ['V1', 'content verified'] });
    expect(out.forbidden_claims).toEqual(['content verified']);
    expect(out.required_downgrades).toEqual([expect.objectContaining({ from: 'content verified', to: 'not made', rule: 'gate/level-forbidden-claims' })]);
  });
  it('keeps claims the level allows', () => {
    expect(gate({ ...fullInput(), claims_requested_by_agent: ['V5', 'content verified'] }).forbidden_claims).toEqual([]);
  });
});

describe('gate/blocking', () => {
  it('forces V0 with a downgrade that says why', () => {
    const out = gate({ ...fullInput(), claims_requested_by_agent: ['V5', 'investment value confirmed'] });
    expect(out.allowed_protocol_level).toBe('V0');
    expect(out.required_downgrades.at(-1)).toMatchObject({ from: 'V5', to: 'V0', rule: 'gate/blocking' });
  });
  it('does nothing without a blocking failure', () => expect(gate(fullInput()).allowed_protocol_level).toBe('V5'));
});

describe('gate/scope-label', () => {
  it('V2-strong needs two reference checks; a request for it is lowered with the reason', () => {
    const one = { ...boundaryInput(), evidence: { echo_context: { authority_boundary_recognized: true }, bitcoin_checks: [{ source_type: 'external_explorer', sources: ['explorer-one'] }] }, claims_requested_by_agent: ['V2-strong'] };
    const out = gate(one);
    expect(out).toMatchObject({ allowed_protocol_level: 'V2', allowed_protocol_scope_label: 'V2-minimal', verification_scope_label: 'single_reference_check' });
    expect(out.required_downgrades).toEqual([expect.objectContaining({ from: 'V2-strong', to: 'V2-minimal', rule: 'gate/scope-label' })]);
    one.evidence.bitcoin_checks.push({ source_type: 'external_explorer', sources: ['explorer-two'] });
    expect(gate(one)).toMatchObject({ status: 'PASS', allowed_protocol_scope_label: 'V2-strong' });
  });
  it('a request for the minimal label keeps it minimal; with the bare level too, in any order, the bare level counts', () => {
    expect(gate({ ...fullInput(), claims_requested_by_agent: ['V3-minimal'] }).allowed_protocol_scope_label).toBe('V3-minimal');
    for (const asked of [['V3', 'V3-minimal'], ['V3-minimal', 'V3']]) {
      expect(gate({ ...fullInput(), claims_requested_by_agent: asked }).allowed_protocol_scope_label).toBe('V3-strong');
    }
    expect(gate({ ...fullInput(), claims_requested_by_agent: ['V3-strong', 'V3-minimal'] }).allowed_protocol_scope_label).toBe('V3-strong');
  });
});

describe('gate/record-kind', () => {
  it('recommends an ordinary echo and no report when blocked; test_record for a fixture', () => {
    const blocked = gate({ ...fullInput(), claims_requested_by_agent: ['V5', 'truth proven'] });
    expect(blocked).toMatchObject({ recommended_record_kind: 'echo_v3', can_build_verification_report: false, can_build_echo_wrapper: false });
    expect(gate({ ...fullInput(), test_fixture: true }).recommended_record_kind).toBe('test_record');
  });
  it('the requested kind otherwise; the wrapper only when requested', () => {
    expect(gate(fullInput())).toMatchObject({ recommended_record_kind: 'verification_report_v2', can_build_verification_report: true, can_build_echo_wrapper: false });
    expect(gate({ ...fullInput(), requested_record_kind: 'echo_v3_with_verification_report' }).can_build_echo_wrapper).toBe(true);
  });
});

describe('the published document is what runs', () => {
  it('a changed requirement changes the verdict', () => {
    const rules = structuredClone(PUBLISHED_CLAIM_GATE_RULES);
    const v5 = rules.protocol_level_rules.find((r) => r.level === 'V5')!;
    (v5.requires[0]!.when as any).component_at_least.nft_evidence = 'N2';
    const out = evaluateClaimGate(fullInput(), rules);
    expect(out.allowed_protocol_level).toBe('V4');
    expect(out.rules.sha256).not.toBe(evaluateClaimGate(fullInput()).rules.sha256);
  });
  it('a changed ladder, forbidden claim and historical list change the verdict', () => {
    const rules = structuredClone(PUBLISHED_CLAIM_GATE_RULES);
    rules.component_ladders.bitcoin_originals!.rungs.B2!.when = { list: 'bitcoin_checks', at_least: 5 };
    rules.forbidden_claim_rules.push({ claim: 'archive endorsed', reason: 'test' });
    rules.protocol_levels.historical_only_for_new_work = ['V4+', 'V5', 'V6', 'V7', 'V8'];
    rules.protocol_levels.highest_for_new_work = 'V4';
    const out = evaluateClaimGate({ ...fullInput(), claims_requested_by_agent: ['V5', 'archive endorsed'] }, rules);
    expect(out.forbidden_claims).toEqual(['archive endorsed']);
    expect(out.required_downgrades[0]).toMatchObject({ from: 'V5', to: 'V4', rule: 'gate/historical-only' });
    expect(evaluateClaimGate(fullInput(), rules).allowed_component_levels.bitcoin_originals).toBe('B1');
  });
  it('lists its pipeline rules as the code runs them', () => {
    const ids = gateRules.map((r) => r.id);
    expect((PUBLISHED_CLAIM_GATE_RULES as any).pipeline).toEqual([{ id: INPUT_SCHEMA_RULE, summary: INPUT_SCHEMA_SUMMARY }, ...gateRules.map((r) => ({ id: r.id, summary: r.summary }))]);
    expect(new Set(ids).size).toBe(ids.length);
  });
  it('a broken document gives FAIL, never a throw', () => {
    const rules = structuredClone(PUBLISHED_CLAIM_GATE_RULES);
    (rules as any).protocol_level_rules = null;
    const out = evaluateClaimGate(fullInput(), rules);
    expect(out.status).toBe('FAIL');
    expect(out.blocking_failures[0]).toMatch(/rules document could not be run/);
  });
});

describe('gateFindings', () => {
  it('one line per finding, in plain words', () => {
    const out = gate({ ...fullInput(), claims_requested_by_agent: ['V8', 'B4'] });
    const lines = gateFindings(out);
    expect(lines[0]).toBe('Claim Gate PASS_WITH_DOWNGRADE: allowed protocol level V5, requested V8; verification_scope_label full_public_digital_verification.');
    expect(lines).toContain(`Downgrade V8 → V5 [gate/historical-only]: ${out.required_downgrades.find((d) => d.from === 'V8')!.reason}.`);
    expect(lines.filter((l) => l.startsWith('Missing evidence:'))).toHaveLength(out.missing_evidence.length);
    expect(gateFindings(gate(null))[0]).toMatch(/^Claim Gate FAIL: the input could not be evaluated/);
  });
});

describe('docs/claim-gate.md', () => {
  it('lists every rule id and every downgrade rule of the document', () => {
    const page = readFileSync(new URL('../../docs/claim-gate.md', import.meta.url), 'utf8');
    for (const id of [INPUT_SCHEMA_RULE, ...gateRules.map((r) => r.id)]) expect(page).toContain(`| \`${id}\` |`);
    for (const r of PUBLISHED_CLAIM_GATE_RULES.downgrade_rules) expect(page).toContain(`\`${r.id}\``);
  });
});

describe('the rules document is checked as a whole', () => {
  it('the published document compiles', () => {
    expect(() => compileRulesDocument(PUBLISHED_CLAIM_GATE_RULES)).not.toThrow();
  });
  it.each([
    ['an unknown condition kind', (r: any) => (r.component_ladders.bitcoin_originals.rungs.B1.when = { lst: 'bitcoin_checks' }), /unknown condition/],
    ['an unknown matcher operator', (r: any) => (r.protocol_level_rules[1].requires[0].when.any_of[0].equalz = true), /unknown matcher operator "equalz"/],
    ['a rung that is not on any ladder', (r: any) => (r.downgrade_rules[0].unless = { rung: 'B9' }), /unknown component level "B9"/],
  ])('%s fails every evaluation, whatever the input', (_, mutate, message) => {
    const rules = structuredClone(PUBLISHED_CLAIM_GATE_RULES);
    mutate(rules);
    expect(() => compileRulesDocument(rules)).toThrow(message);
    for (const input of [boundaryInput(), fullInput()]) {
      const out = evaluateClaimGate(input, rules);
      expect(out.status).toBe('FAIL');
      expect(out.blocking_failures[0]).toMatch(/rules document could not be run/);
    }
  });
});
