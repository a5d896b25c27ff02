/** The scaffold of each kind, read from the schema: constants filled, placeholders where the contributor answers. */
import { describe, expect, it } from 'vitest';
import { canonicalRecordText, inSchemaOrder } from '../../src/core/record/canonical-layout.ts';
import { findPlaceholders } from '../../src/core/record/placeholder.ts';
import { scaffoldRecord } from '../../src/core/record/scaffold.ts';
import { RECORD_KINDS } from '../../src/core/record/vocabulary.ts';
import { requiredConstants } from '../../src/core/schema/constants.ts';
import { ECHO_RECORD_SCHEMA_ID } from '../../src/core/schema/documents.ts';
import { errors, judge } from '../helpers/records.ts';

describe('scaffoldRecord', () => {
  it.each(RECORD_KINDS)('%s: the only errors are the placeholders, one per value to answer', (kind) => {
    const record = scaffoldRecord(kind);
    expect(record.record_kind).toBe(kind);
    const diags = errors(judge(record));
    expect(diags.length).toBeGreaterThan(0);
    expect(diags.filter((d) => d.rule !== 'draft/placeholder')).toEqual([]);
    expect(diags.map((d) => d.pointer)).toEqual(expect.arrayContaining(findPlaceholders(record).map(([p]) => p)));
  });

  it('fills the boundary constants from the schema', () => {
    const record = scaffoldRecord('echo_v3');
    expect(record.boundary_acknowledgement).toEqual(requiredConstants(ECHO_RECORD_SCHEMA_ID, 'boundary_acknowledgement'));
    expect(record).toMatchObject({ schema: 'service.echo.v3', echo_version: '3.0', not_authority: true, archive_status: 'needs_human_review' });
  });

  it('asks for the report fields of echo_v3_with_verification_report, which a rule requires', () => {
    const record = scaffoldRecord('echo_v3_with_verification_report');
    expect(Object.keys(record)).toEqual(expect.arrayContaining(['verification_scope_label', 'linked_verification_report', 'generated_by']));
  });

  it('gives legacy kinds only the always-required fields, and origin_classification (DECISIONS 22)', () => {
    expect(Object.keys(scaffoldRecord('legacy_record')).sort()).toEqual([
      'archive_status',
      'discovery_provenance',
      'independence_class',
      'origin_classification',
      'origin_limitations',
      'record_kind',
    ]);
  });

  it.each(RECORD_KINDS)('%s: asks for origin_classification (DECISIONS 22), each answer a placeholder the validator explains', (kind) => {
    const record = scaffoldRecord(kind);
    const origin = record.origin_classification as Record<string, unknown>;
    expect(Object.keys(origin)).toEqual([
      'schema',
      'discovery_class',
      'invitation_scope',
      'requester_class',
      'performer_class',
      'method_independence_class',
      'attestation_authority_class',
      'derived_counting_bucket',
      'counts_as_formal_independent_attestation',
    ]);
    expect(origin.schema).toBe('service.origin-classification.v1');
    expect(origin.discovery_class).toMatch(/^<TODO: one of unsolicited_discovery, public_index_discovery, .*, unknown>$/);
    expect(origin.counts_as_formal_independent_attestation).toMatch(/^<TODO: true or false: Whether the record counts as formal independent attestation/);
    const diags = judge(record).filter((d) => d.pointer.startsWith('/origin_classification'));
    expect(diags.map((d) => [d.rule, d.severity, d.pointer])).toEqual(
      Object.keys(origin)
        .filter((k) => k !== 'schema')
        .map((k) => ['draft/placeholder', 'error', `/origin_classification/${k}`]),
    );
    expect(diags.find((d) => d.pointer === '/origin_classification/invitation_scope')!.hint).toBe(
      'Replace the placeholder with one of none, look_only, orientation_only, echo_invited, verification_invited, propagation_invited, attestation_invited, unknown.',
    );
    // Present (if unfinished): no warning that it is missing.
    expect(judge(record).filter((d) => d.rule === 'cross/origin-classification-missing')).toEqual([]);
  });

  it("describes a placeholder by the field's description, or for a list item by the list's", () => {
    const record = scaffoldRecord('echo_v3');
    expect((record.agent_identity as Record<string, unknown>).self_reported).toMatch(/^<TODO: true or false: Whether this identity is the agent's own statement/);
    expect(record.uncertainties).toEqual(['<TODO: your text: What the agent is unsure of>']);
  });

  it('names the allowed values in an enum placeholder', () => {
    expect((scaffoldRecord('echo_v3').discovery_provenance as Record<string, unknown>).confidence).toBe('<TODO: one of low, medium, high>');
  });
});

describe('canonical layout', () => {
  it("orders members as the schema's properties, nested ones too, unknown members after in written order", () => {
    const record = { zeta: 1, echo: 'e', schema: 's', discovery_provenance: { confidence: 'low', schema: 'x', extra: 1 }, extensions: { b: 1, a: 2 } };
    expect(JSON.stringify(inSchemaOrder(record))).toBe(
      '{"schema":"s","discovery_provenance":{"schema":"x","confidence":"low","extra":1},"echo":"e","extensions":{"b":1,"a":2},"zeta":1}',
    );
    expect(canonicalRecordText(record).endsWith('}\n')).toBe(true);
    expect(canonicalRecordText(record)).toContain('\n  "schema": "s",\n');
  });
});
