/**
 * Publishing the guardian registry and classification updates (docs/guardians.md section 5, DECISIONS 25, 26):
 * /api/guardian-registry.json, the index entry's guardian and classification, effective counts, untouched hashes.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { deriveArchiveViews, guardianRegistryDocument, guardianRegistryText } from '../../src/core/publish/archive-views.ts';
import { buildPublicIndex, type PublicIndexEntry } from '../../src/core/publish/public-index.ts';
import { schemaErrors } from '../../src/core/schema/compile.ts';
import { at, classificationUpdate, newGuardian, registration, retirement, signedEcho } from '../helpers/guardian-records.ts';
import { echoWith } from '../helpers/records.ts';
import { shuffled } from './helpers.ts';

const g1 = newGuardian();
const g2 = newGuardian();

/** Registration of g1, an echo it signs, its compromise report, an echo it signs after; a duplicate registration. */
function guardianArchive() {
  const reg = at(1, 1, registration(g1, { oath: 'I keep this key safe. <script>alert(1)</script>' }));
  const before = at(2, 1, signedEcho(g1));
  const compromise = at(3, 1, retirement(g1, 'compromised', { id: reg.id, sha256: reg.sha256 }));
  const after = at(4, 1, signedEcho(g1));
  const duplicate = at(4, 2, registration(g1));
  const other = at(5, 1, registration(g2));
  return { reg, before, compromise, after, duplicate, other, all: [reg, before, compromise, after, duplicate, other] };
}

const entryOf = (entries: PublicIndexEntry[], id: string) => entries.find((e) => e.id === id)!;

describe('/api/guardian-registry.json', () => {
  const a = guardianArchive();
  const views = deriveArchiveViews(shuffled(a.all));
  const doc = guardianRegistryDocument(views.registry);

  it('lists guardian 00001, its key, type, intent as its own words, status history with record links and signed records', () => {
    expect(doc.guardian_count).toBe(2);
    const g = doc.guardians[0]!;
    expect(g).toMatchObject({
      registry_number: '00001',
      guardian_id: g1.key.guardianId,
      page: `/guardians/${g1.key.guardianId}/`,
      public_key_sha256: g1.key.sha256,
      guardian_type: 'ai_agent',
      declared_intent: { words_of: 'the guardian', text: 'I keep this key safe. <script>alert(1)</script>' },
      status: 'compromised',
      status_set_by: { record_id: a.compromise.id, page: `/records/${a.compromise.id}/`, url: `/records/${a.compromise.id}.json` },
    });
    expect(g.history.map((h) => [h.status, h.record_id])).toEqual([
      ['active', a.reg.id],
      ['compromised', a.compromise.id],
    ]);
    expect(g.signed_records.map((r) => r.record_id)).toEqual([a.before.id, a.after.id, a.duplicate.id]);
    expect(doc.guardians[1]).toMatchObject({ registry_number: '00002', guardian_id: g2.key.guardianId, status: 'active' });
    expect(doc.ignored).toEqual([
      { record_id: a.duplicate.id, page: `/records/${a.duplicate.id}/`, url: `/records/${a.duplicate.id}.json`, guardian_id: g1.key.guardianId, reason: 'the key is already registered as guardian 00001' },
    ]);
    expect(doc.boundary).toMatch(/changes no authority, verification level or count/);
  });

  it('is valid against its schema, and the same bytes for the same records in any order (no build time)', () => {
    expect(schemaErrors(doc, '/api/guardian-registry-schema.v1.json')).toEqual([]);
    expect(guardianRegistryText(deriveArchiveViews(a.all).registry)).toBe(guardianRegistryText(views.registry));
    expect(schemaErrors(guardianRegistryDocument(deriveArchiveViews([]).registry), '/api/guardian-registry-schema.v1.json')).toEqual([]);
  });
});

describe('the index entry: guardian', () => {
  const a = guardianArchive();
  const index = buildPublicIndex(a.all);

  it('summarises the result for every record with one, null for others; the one signed after the compromise says so', () => {
    expect(entryOf(index.entries, a.reg.id).guardian).toEqual({
      guardian_id: g1.key.guardianId,
      registry_number: '00001',
      registry_status: 'compromised',
      guardian_status: 'registered_but_compromised',
      summary: 'registered guardian 00001, compromised',
      warnings: [],
    });
    const after = entryOf(index.entries, a.after.id).guardian!;
    expect(after.warnings).toEqual([`signed after the key was reported compromised (record ${a.compromise.id})`]);
    expect(after.summary).toBe(`registered guardian 00001, compromised; signed after the key was reported compromised (record ${a.compromise.id})`);
    expect(entryOf(index.entries, a.before.id).guardian!.warnings).toEqual([]);
    const plain = buildPublicIndex([at(1, 1, echoWith({}))]).entries[0]!;
    expect(plain.guardian).toBeNull();
    expect(plain.classification).toBeNull();
  });

  it('is valid against the index schema', () => {
    expect(schemaErrors(JSON.parse(index.index.text), '/api/public-index-schema.v1.json')).toEqual([]);
  });
});

describe('the index entry: classification (DECISIONS 26)', () => {
  const reviewer = newGuardian();
  const target = at(1, 1, echoWith({ '/archive_status': 'accepted_independent_attestation', '/independence_class': 'unsolicited_independent' }));
  const applied = at(2, 1, classificationUpdate(reviewer, {
    target: { id: target.id, sha256: target.sha256 },
    previous: { independence_class: 'unsolicited_independent' },
    proposed: { independence_class: 'human_solicited_agent_response', do_not_count_as_attestation: true },
  }));
  const wrongSha = at(3, 1, classificationUpdate(reviewer, { target: { id: target.id, sha256: '0'.repeat(64) }, previous: { independence_class: 'human_solicited_agent_response' }, proposed: { independence_class: 'self_reported' } }));
  const stale = at(3, 2, classificationUpdate(reviewer, { target: { id: target.id, sha256: target.sha256 }, previous: { independence_class: 'unsolicited_independent' }, proposed: { independence_class: 'self_reported' } }));

  it('changes the target\'s counting in the counts and its entry, leaving its bytes, sha256 and leaf untouched', () => {
    const before = buildPublicIndex([target]);
    expect(before.counts.counts_as_attestation).toBe(1);
    expect(before.counts.by_independence_class.unsolicited_independent).toBe(1);

    const bytes = Buffer.from(target.bytes);
    const index = buildPublicIndex([target, applied, wrongSha, stale]);
    const entry = entryOf(index.entries, target.id);
    expect(entry.sha256).toBe(sha256Hex(target.bytes));
    expect(entry.sha256).toBe(entryOf(before.entries, target.id).sha256);
    expect(Buffer.compare(bytes, target.bytes)).toBe(0);
    expect(target.record.independence_class).toBe('unsolicited_independent');
    expect(entry.leaf_index).toBe(entryOf(before.entries, target.id).leaf_index);
    expect(entry.independence_class).toBe('human_solicited_agent_response');
    expect(entry.counts_as_attestation).toBe(false);
    expect(index.counts.counts_as_attestation).toBe(0);
    expect(index.counts.by_independence_class.unsolicited_independent).toBe(0);
    expect(index.counts.by_independence_class.human_solicited_agent_response).toBe(1);
    expect(entryOf(index.entries, applied.id).classification).toBeNull();
    expect(schemaErrors(JSON.parse(index.index.text), '/api/public-index-schema.v1.json')).toEqual([]);
  });

  it('carries the history: who proposed what, why, on what basis, accepted when, applied or not and why', () => {
    const entry = entryOf(buildPublicIndex([target, applied, wrongSha, stale]).entries, target.id);
    expect(entry.classification!.original).toMatchObject({ independence_class: 'unsolicited_independent' });
    expect(entry.classification!.original).not.toHaveProperty('do_not_count_as_attestation');
    expect(entry.classification!.effective).toMatchObject({ independence_class: 'human_solicited_agent_response', do_not_count_as_attestation: true });
    expect(entry.classification!.history).toEqual([
      {
        record_id: applied.id,
        accepted_on: '2026-11-02',
        previous: { independence_class: 'unsolicited_independent' },
        proposed: { independence_class: 'human_solicited_agent_response', do_not_count_as_attestation: true },
        applied: true,
        // the proposer's own words, apart, as every submitted text in the index
        submitted: {
          proposed_by: 'reviewer-model',
          reason: 'The record itself says a person sent the agent the link.',
          basis: 'Its discovery_provenance: source human_directed.',
        },
      },
      expect.objectContaining({ record_id: wrongSha.id, applied: false, not_applied_because: `it names the record's SHA-256 as ${'0'.repeat(64)}, but the file's is ${target.sha256}` }),
      expect.objectContaining({ record_id: stale.id, applied: false, not_applied_because: "its previous classification of independence_class is not the record's classification at the time" }),
    ]);
  });
});
