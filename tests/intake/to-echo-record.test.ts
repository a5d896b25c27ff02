/**
 * Intake accept's origin_classification (DECISIONS 22): derived from what the submission says of discovery and
 * invitation, `unknown` where it says nothing, valid against its schema and consistent with the record it is in.
 */
import { describe, expect, it } from 'vitest';
import { RECORD_TYPES, type JsonObject, type RecordType } from '../../src/core/record-chain/index.ts';
import { schemaErrors } from '../../src/core/schema/compile.ts';
import { toEchoRecord } from '../../src/intake/to-echo-record.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { errors, judge } from '../helpers/records.ts';

const REF = { receiptId: 'rcpt-1', receivedAt: '2026-11-22T12:00:00Z', submissionSha256: 'b'.repeat(64) };

function accepted(type: RecordType, changes: JsonObject = {}): JsonObject {
  return toEchoRecord(submission(type, record(type, changes)), REF);
}

const originOf = (r: JsonObject) => r.origin_classification as Record<string, unknown>;

describe('intake accept: origin_classification', () => {
  it.each(RECORD_TYPES)('%s: present, valid against its schema, and the record has no error or warning about it', (type) => {
    const r = accepted(type);
    expect(schemaErrors(r.origin_classification, '/api/origin-classification-schema.v1.json')).toEqual([]);
    expect(originOf(r)).toMatchObject({ derived_counting_bucket: 'gateway_intake_only', attestation_authority_class: 'self_reported', counts_as_formal_independent_attestation: false });
    // ruling 9: both counts present and equal
    expect(r.counts_as_independent_attestation).toBe(false);
    const diags = judge(r).filter((d) => d.pointer.startsWith('/origin_classification') || d.rule.startsWith('cross/origin') || d.rule === 'cross/derived-counts' || d.rule === 'cross/unknown-agency');
    expect(diags).toEqual([]);
  });

  it('an independent search (A4, search engine, nobody invited it): unsolicited discovery, no requester, no invitation; method from the claim', () => {
    expect(originOf(accepted('echo'))).toMatchObject({
      discovery_class: 'unsolicited_discovery',
      requester_class: 'none',
      invitation_scope: 'none',
      performer_class: 'ai_agent',
      method_independence_class: 'reference_check', // digital_profile integrity_checked
    });
  });

  it('a human gave the link: human directed, the invitation unknown', () => {
    const r = accepted('echo', {
      discovery_provenance: { ...(record('echo').discovery_provenance as JsonObject), source: 'human_directed', agency_level: 'A1_human_gave_exact_url', human_supplied_link: true },
    });
    expect(originOf(r)).toMatchObject({ discovery_class: 'human_directed', requester_class: 'human_individual', invitation_scope: 'unknown' });
  });

  it('another agent referred it and invited verification: agent referred, the referral scope kept', () => {
    const r = accepted('echo', {
      discovery_provenance: {
        ...(record('echo').discovery_provenance as JsonObject),
        source: 'agent_recommended',
        agency_level: 'A3_agent_followed_other_agent_reference',
        other_agent_recommended: true,
        referral: { referred_by_agent: true, referring_agent: 'agent-x', invitation_scope: 'verification_invited' },
      },
    });
    expect(originOf(r)).toMatchObject({ discovery_class: 'agent_referred', requester_class: 'ai_agent', invitation_scope: 'verification_invited' });
    expect(errors(judge(r))).toEqual([]);
  });

  it('a submission that says nothing of its discovery (a verification): A6_unknown provenance, every origin value unknown', () => {
    const r = accepted('verification');
    expect((r.discovery_provenance as JsonObject).agency_level).toBe('A6_unknown');
    expect(originOf(r)).toMatchObject({ discovery_class: 'unknown', requester_class: 'unknown', invitation_scope: 'unknown', counts_as_formal_independent_attestation: false });
  });

  it("the submission's own classification cannot raise the claim: its formal attestation is not taken, its invitation scope is", () => {
    const own = {
      schema: 'service.origin-classification.v1',
      discovery_class: 'human_directed',
      invitation_scope: 'look_only',
      requester_class: 'human_individual',
      performer_class: 'ai_agent',
      method_independence_class: 'full_independent_reproduction',
      attestation_authority_class: 'notarial_record',
      derived_counting_bucket: 'notarial_or_legal_provenance',
      counts_as_formal_independent_attestation: true,
    };
    const r = accepted('verification', { origin_classification: own });
    expect(originOf(r)).toMatchObject({
      invitation_scope: 'look_only',
      method_independence_class: 'reference_check',
      attestation_authority_class: 'self_reported',
      counts_as_formal_independent_attestation: false,
    });
    expect(errors(judge(r))).toEqual([]);
  });
});
