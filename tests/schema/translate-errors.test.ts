/** Ajv's errors become findings a contributor can act on (schema/* rules). */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/rules/rule.ts';
import { echoWith, errors, judge, lineOf, recordText, REMOVE, validEcho } from '../helpers/records.ts';

const ALWAYS_REQUIRED = ['record_kind', 'archive_status', 'discovery_provenance', 'independence_class', 'origin_limitations'];
// spec 2.1, "When record_kind is not legacy_record and not verification_report_v2", in the spec's order
const KIND_REQUIRED = [
  'schema', 'echo_version', 'agent_identity', 'context_depth', 'assessment_state', 'verification_level', 'discovery_provenance',
  'understanding_summary', 'verification_claim', 'echo', 'uncertainties', 'boundary_acknowledgement', 'independence_class',
  'archive_status', 'origin_limitations', 'not_authority', 'not_amendment', 'not_endorsement', 'bitcoin_originals_prevail',
  'not_verification_unless_claimed',
];
const CONDITIONAL_ONLY = KIND_REQUIRED.filter((f) => !ALWAYS_REQUIRED.includes(f));

/** The names a grouped finding lists after "…: ". */
function listed(message: string): string[] {
  return message.slice(message.indexOf(': ') + 2).split(', ');
}

/** True when `names` keeps the relative order that `order` gives them. */
function inRelativeOrder(names: string[], order: string[]): boolean {
  const positions = names.filter((n) => order.includes(n)).map((n) => order.indexOf(n));
  return positions.every((p, i) => i === 0 || positions[i - 1]! < p);
}

function schemaFindings(record: JsonObject) {
  return judge(record).filter((d) => d.rule.startsWith('schema/'));
}

function onlyFinding(record: JsonObject) {
  const found = errors(judge(record));
  expect(found).toHaveLength(1);
  return found[0]!;
}

const AJV_WORDING = [
  /must have required property/,
  /must NOT have additional properties/,
  /must be equal to one of the allowed values/,
  /must be equal to constant/,
  /must match pattern "/,
  /must NOT have fewer than/,
  /must match format/,
  /must match "then" schema/,
  /must be (string|object|array|boolean|integer|number)\b/,
];

describe('schema/required', () => {
  it('groups every missing top-level field into one finding at the top level', () => {
    const missing = ['schema', 'agent_identity', 'echo', 'discovery_provenance', 'origin_limitations'];
    const record = echoWith(Object.fromEntries(missing.map((f) => [`/${f}`, REMOVE])));
    const d = onlyFinding(record);
    expect(d).toMatchObject({ rule: 'schema/required', severity: 'error', pointer: '', line: 1, column: 1 });
    expect(d.message).toMatch(/^missing required fields in the top level: /);
    const names = listed(d.message);
    expect([...names].sort()).toEqual([...missing].sort());
    expect(new Set(names).size).toBe(names.length);
    // in order: the conditional fields in the spec's order, and the always-required fields in theirs
    expect(inRelativeOrder(names, CONDITIONAL_ONLY)).toBe(true);
    expect(inRelativeOrder(names, ALWAYS_REQUIRED)).toBe(true);
    expect(d.hint).toBe(
      `Add ${names.join(', ')}. Every record_kind except legacy_record and verification_report_v2 carries the full Echo v3 field set.`,
    );
  });

  it('says "field" for one missing field', () => {
    const d = onlyFinding(echoWith({ '/echo': REMOVE }));
    expect(d.message).toBe('missing required field in the top level: echo');
  });

  it('points a nested missing field at the object that lacks it', () => {
    const record = echoWith({ '/discovery_provenance/first_entry/entry_type': REMOVE, '/discovery_provenance/confidence': REMOVE });
    const found = errors(judge(record));
    expect(found.map((d) => [d.rule, d.pointer, d.message])).toEqual([
      ['schema/required', '/discovery_provenance', 'missing required field in /discovery_provenance: confidence'],
      ['schema/required', '/discovery_provenance/first_entry', 'missing required field in /discovery_provenance/first_entry: entry_type'],
    ]);
    const text = recordText(record);
    expect(found[0]!.line).toBe(lineOf(text, '"discovery_provenance"'));
    expect(found[1]!.line).toBe(lineOf(text, '"first_entry"'));
    expect(found[1]!.hint).toBe('Add entry_type.');
  });
});

describe('kind-conditional required set', () => {
  const minimal = (kind: string): JsonObject => ({
    record_kind: kind,
    archive_status: 'legacy',
    discovery_provenance: validEcho().discovery_provenance,
    independence_class: 'legacy',
    origin_limitations: ['migrated from an older archive; origin unknown'],
  });

  it.each(['legacy_record', 'verification_report_v2'])('%s needs only the always-required set', (kind) => {
    expect(judge(minimal(kind))).toEqual([]);
  });

  it.each(['legacy_record', 'verification_report_v2'])('%s still needs the always-required set (DECISIONS 4)', (kind) => {
    const record = minimal(kind);
    delete record.independence_class;
    delete record.origin_limitations;
    const d = onlyFinding(record);
    expect(d.message).toBe('missing required fields in the top level: independence_class, origin_limitations');
    expect(d.hint).toBe('Add independence_class, origin_limitations.');
  });

  it.each(['echo_v3', 'echo_v3_with_verification_report', 'imported_external_commentary', 'test_record', 'verification_archive'])(
    '%s with only the always-required set misses exactly the rest of the Echo v3 set',
    (kind) => {
      const found = judge(minimal(kind)).filter((d) => d.rule === 'schema/required');
      expect(found).toHaveLength(1);
      const names = listed(found[0]!.message);
      expect(names).toEqual(CONDITIONAL_ONLY);
      expect(found[0]!.hint).toMatch(/Every record_kind except legacy_record and verification_report_v2/);
    },
  );

  it('without any record_kind, only the always-required set is asked for', () => {
    const d = onlyFinding({});
    expect(d.message).toBe(`missing required fields in the top level: ${ALWAYS_REQUIRED.join(', ')}`);
    expect(d.hint).not.toMatch(/Every record_kind/);
  });
});

describe('schema/additional-properties', () => {
  it('groups extra top-level fields into one finding at the first extra key', () => {
    const record = echoWith({ '/foo': 1, '/bar_baz': { x: 1 } });
    const d = onlyFinding(record);
    expect(d).toMatchObject({ rule: 'schema/additional-properties', pointer: '/foo' });
    expect(d.message).toBe('fields not allowed in the top level: foo, bar_baz');
    expect(d.hint).toMatch(/top level of an Echo v3 record is closed/);
    expect(d.hint).toMatch(/"extensions"/);
    const text = recordText(record);
    const line = lineOf(text, '"foo"');
    expect({ line: d.line, column: d.column }).toEqual({ line, column: text.split('\n')[line - 1]!.indexOf('"foo"') + 1 });
  });

  it('names the allowed fields of a closed nested object', () => {
    const record = echoWith({ '/agent_identity/nickname': 'x' });
    const d = onlyFinding(record);
    expect(d).toMatchObject({ rule: 'schema/additional-properties', pointer: '/agent_identity/nickname' });
    expect(d.message).toBe('field not allowed in /agent_identity: nickname');
    expect(d.hint).toBe(
      'Remove them or rename them to allowed fields of /agent_identity: name_or_model, system_or_provider, self_reported, session_or_run_id.',
    );
    expect(d.line).toBe(lineOf(recordText(record), '"nickname"'));
  });

  it('keeps separate objects separate', () => {
    const found = errors(judge(echoWith({ '/x1': 1, '/boundary_acknowledgement/x2': true, '/x3': 2 })));
    expect(found.map((d) => d.message)).toEqual([
      'field not allowed in /boundary_acknowledgement: x2',
      'fields not allowed in the top level: x1, x3',
    ]);
  });

  it('allows extra properties where the spec does (generated_by, extensions)', () => {
    const record = echoWith({ '/extensions/anything': { goes: [1] } });
    expect(judge(record)).toEqual([]);
  });
});

describe('schema/type', () => {
  it.each([
    ['/understanding_summary', 42, 'a string', 'an integer'],
    ['/uncertainties', 'one', 'an array', 'a string'],
    ['/agent_identity', [], 'an object', 'an array'],
    ['/agent_identity/self_reported', 'yes', 'true or false', 'a string'],
    ['/agent_identity/session_or_run_id', 5, 'a string or null', 'an integer'],
    ['/component_findings', [], 'an object', 'an array'],
  ])('%s = %j must be %s', (pointer, value, expected, found) => {
    const d = onlyFinding(echoWith({ [pointer]: value }));
    expect(d).toMatchObject({ rule: 'schema/type', pointer });
    expect(d.message).toBe(`${pointer} must be ${expected} (found ${found})`);
    expect(d.hint).toBe(`Change the value to ${expected}.`);
  });

  it('reports a wrongly typed constant once (DECISIONS: every problem is reported once)', () => {
    const d = onlyFinding(echoWith({ '/not_authority': 'true' }));
    expect(d).toMatchObject({ rule: 'schema/const', pointer: '/not_authority' });
    expect(d.message).toBe('/not_authority must be true (found "true")');
  });

  it('reports a wrongly typed enum value once', () => {
    const d = onlyFinding(echoWith({ '/context_depth': 3 }));
    expect(d).toMatchObject({ rule: 'schema/enum', pointer: '/context_depth' });
    expect(d.message).toMatch(/\(found 3\)$/);
  });
});

describe('schema/enum', () => {
  it('suggests the nearest value for a typo', () => {
    const record = echoWith({ '/context_depth': 'C3_verification_awar' });
    const d = onlyFinding(record);
    expect(d).toMatchObject({ rule: 'schema/enum', pointer: '/context_depth' });
    expect(d.message).toBe(
      '/context_depth must be one of: C0_homepage_only, C1_orientation, C2_registry_aware, C3_verification_aware, C4_artifact_verified, C5_full_chain_reviewed, C6_independent_node_verified (found "C3_verification_awar")',
    );
    expect(d.hint).toBe('Did you mean "C3_verification_aware"?');
    const text = recordText(record);
    const line = lineOf(text, '"context_depth"');
    expect({ line: d.line, column: d.column }).toEqual({ line, column: text.split('\n')[line - 1]!.indexOf('"C3_') + 1 });
  });

  it('suggests the right case', () => {
    expect(onlyFinding(echoWith({ '/archive_status': 'Accepted_Echo' })).hint).toBe('Did you mean "accepted_echo"?');
  });

  it('does not guess when nothing is close', () => {
    const d = onlyFinding(echoWith({ '/archive_status': 'zzzzzz' }));
    expect(d.hint).toBe('Use one of the listed values exactly as written.');
  });

  it('reports enum values inside a sub-schema (discovery provenance) at their place', () => {
    const record = echoWith({ '/discovery_provenance/source': 'web_serch', '/discovery_provenance/confidence': 'hgh' });
    const found = errors(judge(record));
    expect(found.map((d) => [d.rule, d.pointer, d.hint])).toEqual([
      ['schema/enum', '/discovery_provenance/source', 'Use one of the listed values exactly as written.'],
      ['schema/enum', '/discovery_provenance/confidence', 'Did you mean "high"?'],
    ]);
    expect(found[0]!.message).toMatch(/^\/discovery_provenance\/source must be one of: self_initiated, agent_recommended, /);
  });
});

describe('schema/const', () => {
  it.each([
    ['/schema', 'service.echo.v2', '"service.echo.v3"', '"service.echo.v2"', '"service.echo.v3"'],
    ['/echo_version', '3', '"3.0"', '"3"', '"3.0"'],
    ['/boundary_acknowledgement/mirror_is_not_amendment', false, 'true', 'false', 'true'],
  ])('%s', (pointer, value, must, found, write) => {
    const d = onlyFinding(echoWith({ [pointer]: value }));
    expect(d).toMatchObject({ rule: 'schema/const', pointer });
    expect(d.message).toBe(`${pointer} must be ${must} (found ${found})`);
    expect(d.hint).toBe(`This value is fixed: write ${write}.`);
  });

  it('a conditional constant of a sub-schema (if/then) is reported once, without the "if"', () => {
    const d = onlyFinding(echoWith({ '/origin_classification/requester_class': 'ai_agent' }));
    expect(d).toMatchObject({ rule: 'schema/const', pointer: '/origin_classification/requester_class' });
    expect(d.message).toBe('/origin_classification/requester_class must be "none" (found "ai_agent")');
  });
});

describe('schema/pattern', () => {
  it('component_findings depth_achieved', () => {
    const pointer = '/component_findings/BITCOIN_ORIGINALS/depth_achieved';
    const record = echoWith({ [pointer]: 'X1' });
    const d = onlyFinding(record);
    expect(d).toMatchObject({ rule: 'schema/pattern', pointer });
    expect(d.message).toBe(`${pointer} has the wrong form "X1": it must match ^[BDTCNPE][0-9R+]+$`);
    expect(d.hint).toMatch(/letters B D T C N P E followed by digits, R or \+/);
    expect(d.line).toBe(lineOf(recordText(record), '"X1"'));
  });

  it.each(['B', 'b1', 'B1 ', 'Q2', 'D-1'])('refuses depth %j', (depth) => {
    expect(onlyFinding(echoWith({ '/component_findings/EVIDENCE_MIRRORS/depth_achieved': depth })).rule).toBe('schema/pattern');
  });

  it.each(['B1', 'T2+', 'ER', 'N10', 'P3R+'])('accepts depth %j', (depth) => {
    expect(judge(echoWith({ '/component_findings/EVIDENCE_MIRRORS/depth_achieved': depth }))).toEqual([]);
  });

  it('a SHA-256 field gets a hex hint', () => {
    const d = onlyFinding(
      echoWith({
        '/authorship_proof': { method: 'secret_commitment', proof_strength: 'one_time_commitment', commitment_hash: 'A'.repeat(64), content_hash_sha256: 'a'.repeat(64) },
      }),
    );
    expect(d).toMatchObject({ rule: 'schema/pattern', pointer: '/authorship_proof/commitment_hash' });
    expect(d.hint).toBe('Write 64 lowercase hexadecimal characters (a SHA-256 digest).');
  });
});

describe('schema/min-items', () => {
  it('origin_limitations: []', () => {
    const record = echoWith({ '/origin_limitations': [] });
    const d = onlyFinding(record);
    expect(d).toMatchObject({ rule: 'schema/min-items', pointer: '/origin_limitations' });
    expect(d.message).toBe('/origin_limitations needs at least 1 item (found 0)');
    expect(d.hint).toMatch(/origin_limitations, state honestly/);
    expect(d.line).toBe(lineOf(recordText(record), '"origin_limitations"'));
  });
});

describe('schema/format', () => {
  const claim = () => ({
    schema: 'service.echo-authorship-claim.v1',
    claim_id: 'c1',
    target_record_hash_sha256: 'a'.repeat(64),
    challenge: { nonce: 'n', created_at_utc: '2026-05-13T04:30:25Z', expires_at_utc: '2026-05-14T04:30:25Z', challenge_hash_sha256: 'b'.repeat(64) },
    claim_method: 'self_reported_only',
    claim_result: 'self_reported_only',
    boundaries: {
      does_not_prove_truth: true,
      does_not_raise_verification_level: true,
      does_not_create_authority: true,
      does_not_create_attestation: true,
      does_not_prove_same_conscious_subject: true,
    },
  });

  it('accepts an RFC 3339 timestamp', () => {
    expect(judge(echoWith({ '/authorship_claims': [claim()] }))).toEqual([]);
  });

  it.each(['yesterday', '2026-05-13', '2026-05-13 04:30:25', '2026-13-13T04:30:25Z'])('refuses date-time %j', (value) => {
    const record = echoWith({ '/authorship_claims': [claim()], '/authorship_claims/0/challenge/created_at_utc': value });
    const d = onlyFinding(record);
    expect(d).toMatchObject({ rule: 'schema/format', pointer: '/authorship_claims/0/challenge/created_at_utc' });
    expect(d.message).toBe(`/authorship_claims/0/challenge/created_at_utc must be a date-time (found ${JSON.stringify(value)})`);
    expect(d.hint).toBe('Write an RFC 3339 timestamp, e.g. 2026-05-13T04:30:25Z.');
  });
});

describe('sub-schema errors under /discovery_provenance', () => {
  it('missing, extra and mistyped fields each at their own place', () => {
    const record = echoWith({
      '/discovery_provenance/first_entry': REMOVE,
      '/discovery_provenance/solicited': true,
      '/discovery_provenance/human_supplied_link': 'no',
      '/discovery_provenance/schema': 'service.discovery-provenance.v2',
    });
    const found = errors(judge(record));
    expect(found.map((d) => [d.rule, d.pointer])).toEqual([
      ['schema/required', '/discovery_provenance'],
      ['schema/const', '/discovery_provenance/schema'],
      ['schema/type', '/discovery_provenance/human_supplied_link'],
      ['schema/additional-properties', '/discovery_provenance/solicited'],
    ]);
    expect(found[0]!.message).toBe('missing required field in /discovery_provenance: first_entry');
    expect(found[3]!.message).toBe('field not allowed in /discovery_provenance: solicited');
    expect(found[3]!.hint).toMatch(/allowed fields of \/discovery_provenance: schema, source, agency_level, first_entry/);
  });

  it('a referral that is neither null nor an object', () => {
    const d = onlyFinding(echoWith({ '/discovery_provenance/referral': 'agent-x' }));
    expect(d).toMatchObject({ rule: 'schema/type', pointer: '/discovery_provenance/referral' });
    expect(d.message).toBe('/discovery_provenance/referral must be an object or null (found a string)');
  });
});

describe('other keywords', () => {
  const reception = {
    schema: 'service.reception-classification.v1',
    reception_class: 'RC4_verified',
    receiver_class: 'ai_agent',
    action_class: ['read', 'verified'],
    boundary_preserved: true,
    does_not_imply_belief: true,
    does_not_imply_obedience: true,
    does_not_imply_endorsement: true,
    does_not_create_authority: true,
    does_not_amend: true,
  };

  it('a valid reception classification passes', () => {
    expect(judge(echoWith({ '/reception_classification': reception }))).toEqual([]);
  });

  it('contains: RC4_verified without the verified action, said once', () => {
    const d = onlyFinding(echoWith({ '/reception_classification': { ...reception, action_class: ['read'] } }));
    expect(d).toMatchObject({ rule: 'schema/contains', pointer: '/reception_classification/action_class' });
    expect(d.message).toBe('/reception_classification/action_class lacks a required item ("verified")');
  });

  it('unique-items', () => {
    const d = onlyFinding(echoWith({ '/reception_classification': { ...reception, action_class: ['read', 'verified', 'read'] } }));
    expect(d).toMatchObject({ rule: 'schema/unique-items', pointer: '/reception_classification/action_class' });
    expect(d.message).toMatch(/lists the same item twice \(items 0 and 2\)/);
  });
});

describe('no raw Ajv wording reaches a contributor', () => {
  const broken: JsonObject[] = [
    {},
    { record_kind: 'echo_v3' },
    echoWith({ '/foo': 1, '/agent_identity/x': 1, '/schema': 'v2', '/echo_version': 3, '/context_depth': 'C9', '/origin_limitations': [] }),
    echoWith({ '/discovery_provenance': { source: 1, referral: 5, first_entry: { url_or_path: 2 }, confidence: 'sure' } }),
    echoWith({ '/component_findings': { A: { depth_achieved: 'Z', limitations: 3 }, B: 'x' } }),
    echoWith({ '/authorship_proof': { method: 'ed25519_signature', proof_strength: 'weak', content_hash_sha256: 'x' } }),
    echoWith({ '/origin_classification': { discovery_class: 'unsolicited_discovery', requester_class: 'ai_agent', attestation_authority_class: 'none', counts_as_formal_independent_attestation: true } }),
    echoWith({ '/reception_classification': { reception_class: 'RC7_multi_agent_reception', action_class: [] } }),
    echoWith({ '/generated_by': { tool: 'other', validation_result: 'OK' }, '/claim_gate_output': 3, '/script_audit': { exit_code: 1.5 } }),
    echoWith({ '/guardian_registration': { guardian_id: 'nope' }, '/guardian_retirement': { statement: '' } }),
  ];

  it.each(broken.map((r, i) => [i, r] as const))('broken record #%i', (_i, record) => {
    const diags = schemaFindings(record);
    expect(diags.length).toBeGreaterThan(0);
    for (const d of diags) {
      for (const ajv of AJV_WORDING) {
        expect(d.message, d.rule).not.toMatch(ajv);
        expect(d.hint, d.rule).not.toMatch(ajv);
      }
      expect(d.hint.length).toBeGreaterThan(5);
      expect(d.rule).toMatch(/^schema\/[a-z-]+$/);
      expect(d.rule).not.toBe('schema/if');
    }
  });
});
