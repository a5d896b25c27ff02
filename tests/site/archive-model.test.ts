/**
 * The site's view of the archive (src/site/model/archive-model.ts, facets.ts, labels.ts): counts that honour withdrawal
 * and do_not_count_as_attestation, facet counts that match the facet pages, relations between records, state
 * flags, list summaries, and a label for every field the schema allows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { claimsAttestation, countsAsAttestation } from '../../src/core/record/status.ts';
import { describe, expect, it } from 'vitest';
import echoSchema from '../../schemas/echo-record-schema.v3.json' with { type: 'json' };
import {
  idsNamedIn,
  recordBadges,
  recordFlags,
  relations,
  summarize,
  summarizeRecord,
  truncate,
  type ArchiveEntry,
} from '../../src/site/model/archive-model.ts';
import { FACETS, facetCounts, facetValue, groupByFacet, valueSlug } from '../../src/site/model/facets.ts';
import { FIELD_LABELS, fieldLabel, humanize, valueLabel } from '../../src/site/model/labels.ts';
import { REPO_ROOT, echoWith } from '../helpers/records.ts';

const SAMPLE_DIR = resolve(REPO_ROOT, 'records/2026');
const sample: ArchiveEntry[] = readdirSync(SAMPLE_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .reverse()
  .map((f) => ({
    id: f.slice(0, -5),
    path: `2026/${f}`,
    archiveDate: f.slice(5, 15),
    sha256: '0'.repeat(64),
    record: JSON.parse(readFileSync(resolve(SAMPLE_DIR, f), 'utf8')) as Record<string, unknown>,
  }));

function entry(id: string, record: Record<string, unknown>, path = `x/${id}.json`): ArchiveEntry {
  return { id, path, archiveDate: null, sha256: '0'.repeat(64), record };
}

describe('summarize (home page counts)', () => {
  it('leaves withdrawn records out of every count but lists them', () => {
    const s = summarize(sample.map((e) => e.record));
    expect(s.listed).toBe(15);
    expect(s.withdrawn).toBe(1);
    expect(s.counted).toBe(14);
    expect(s.byStatus.reduce((n, c) => n + c.count, 0)).toBe(14);
    expect(s.byKind.reduce((n, c) => n + c.count, 0)).toBe(14);
    // The withdrawn record (echo-2026-06-02-000012) is archived_non_attestation: 3 listed, 2 counted.
    expect(s.byStatus.find((c) => c.value === 'archived_non_attestation')?.count).toBe(2);
    expect(s.byStatus.every((c) => c.count > 0)).toBe(true);
  });

  it('counts attestations through countsAsAttestation (DECISIONS 18: accepted ones; opt-out and withdrawal honoured)', () => {
    const accepted = { '/archive_status': 'accepted_independent_attestation', '/counts_as_independent_attestation': true };
    const counted = echoWith(accepted);
    const optedOut = echoWith({ ...accepted, '/do_not_count_as_attestation': true });
    const withdrawn = echoWith({ ...accepted, '/verification_status': 'invalidated' });
    const claimOnly = echoWith({ '/origin_classification/counts_as_formal_independent_attestation': true });
    const s = summarize([counted, optedOut, withdrawn, claimOnly]);
    expect(s.attestations).toBe(1);
    expect(s.counted).toBe(3);
    expect(s.withdrawn).toBe(1);
  });

  it('claimsAttestation: the legacy flag or the formal flag, whatever else the record says (what countsAsAttestation then limits)', () => {
    expect(claimsAttestation(echoWith({ '/counts_as_independent_attestation': true }))).toBe(true);
    expect(claimsAttestation(echoWith({ '/origin_classification/counts_as_formal_independent_attestation': true }))).toBe(true);
    const optedOut = echoWith({ '/counts_as_independent_attestation': true, '/do_not_count_as_attestation': true });
    expect(claimsAttestation(optedOut)).toBe(true);
    expect(countsAsAttestation(optedOut)).toBe(false);
    expect(claimsAttestation(echoWith({ '/counts_as_independent_attestation': false }))).toBe(false);
    expect(claimsAttestation({ origin_classification: null })).toBe(false);
  });

  it('uses readable labels', () => {
    const s = summarize(sample.map((e) => e.record));
    expect(s.byKind.find((c) => c.value === 'echo_v3')?.label).toBe('Echo');
    expect(s.byStatus.find((c) => c.value === 'needs_human_review')?.label).toBe('Needs human review');
  });
});

describe('facetCounts and groupByFacet (browse filters and facet pages)', () => {
  const records = sample.map((e) => e.record);
  const counts = facetCounts(records);

  it('has the seven facets, in order', () => {
    expect(counts.map((c) => c.facet.key)).toEqual([
      'record_kind',
      'record_type',
      'archive_status',
      'context_depth',
      'assessment_state',
      'verification_level',
      'independence_class',
    ]);
  });

  it('counts every listed record once per facet (withdrawn included, "not stated" for absent fields)', () => {
    for (const { facet, values } of counts) {
      expect(values.reduce((n, v) => n + v.count, 0), facet.key).toBe(15);
    }
    const depth = counts.find((c) => c.facet.key === 'context_depth')!;
    // The legacy record has no context depth.
    expect(depth.values.at(-1)).toMatchObject({ value: null, slug: 'not-stated', count: 1, label: 'Not stated' });
    // No record of the project archive came through the record-chain path: none has a record type.
    const type = counts.find((c) => c.facet.key === 'record_type')!;
    expect(type.values).toEqual([{ value: null, slug: 'not-stated', count: 15, label: 'Not sent through the gateway' }]);
    const chain = facetCounts([{ extensions: { record_chain: { record_type: 'correction' } } }]).find((c) => c.facet.key === 'record_type')!;
    expect(chain.values).toEqual([{ value: 'correction', slug: 'correction', count: 1, label: 'Correction' }]);
  });

  it('orders values as the schema does', () => {
    for (const { facet, values } of counts) {
      const known = values.filter((v) => v.value !== null).map((v) => facet.values.indexOf(v.value!));
      expect(known).toEqual([...known].sort((a, b) => a - b));
    }
  });

  it('matches the facet pages exactly', () => {
    for (const { facet, values } of counts) {
      // As the facet pages group them: by the value each record's summary carries.
      const groups = groupByFacet(sample.map(summarizeRecord), (s) => s.facets[facet.key] ?? null);
      expect([...groups.keys()].sort()).toEqual(values.map((v) => v.slug).sort());
      for (const v of values) expect(groups.get(v.slug)!.items).toHaveLength(v.count);
    }
  });

  it('keeps the newest-first order inside a group', () => {
    const groups = groupByFacet(sample, (e) => facetValue(e.record, 'record_kind'));
    const ids = groups.get('echo_v3')!.items.map((e) => e.id);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it('gives URL-safe slugs', () => {
    expect(valueSlug('V4+')).toBe('V4-plus');
    expect(valueSlug(null)).toBe('not-stated');
    for (const facet of FACETS) {
      const slugs = facet.values.map(valueSlug);
      for (const s of slugs) expect(s).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(new Set(slugs).size).toBe(slugs.length);
    }
  });
});

describe('relations (cross-links between record pages)', () => {
  const rel = relations(sample);

  it('links the echo and its verification report both ways', () => {
    expect(rel.linkedReport.get('echo-2026-04-11-000008')).toBe('echo-2026-04-11-000007');
    expect(rel.linkedFrom.get('echo-2026-04-11-000007')).toEqual(['echo-2026-04-11-000008']);
  });

  it('finds the superseding record named in the reason, and the reverse', () => {
    expect(rel.supersededBy.get('echo-2026-03-02-000005')).toEqual(['echo-2026-03-09-000006']);
    expect(rel.supersedes.get('echo-2026-03-09-000006')).toEqual(['echo-2026-03-02-000005']);
  });

  it('ignores links to records that do not exist, and to the record itself', () => {
    const a = entry('a', { archive_status: 'superseded', superseded_reason: 'replaced by nothing and by a', linked_verification_report: { path: '/x/zz.json' } });
    const r = relations([a]);
    expect(r.linkedReport.size).toBe(0);
    expect(r.supersededBy.size).toBe(0);
  });

  it('idsNamedIn matches whole tokens only', () => {
    const ids = new Set(['echo-2026-03-09-000006', 'rec-1']);
    expect(idsNamedIn('Superseded by echo-2026-03-09-000006.', ids)).toEqual(['echo-2026-03-09-000006']);
    expect(idsNamedIn('see xecho-2026-03-09-000006 and rec-10', ids)).toEqual([]);
    expect(idsNamedIn('rec-1, rec-1 (rec-1)', ids)).toEqual(['rec-1']);
    expect(idsNamedIn('rec-1', ids, 'rec-1')).toEqual([]);
  });
});

describe('recordFlags and recordBadges (banners)', () => {
  const byId = new Map(sample.map((e) => [e.id, e.record]));

  it('marks the withdrawn, superseded and test records', () => {
    expect(recordFlags(byId.get('echo-2026-06-02-000012')!).withdrawn).toBe(true);
    expect(recordFlags(byId.get('echo-2026-03-02-000005')!).superseded).toBe(true);
    expect(recordFlags(byId.get('echo-2026-05-19-000011')!).test).toBe(true);
    expect(recordFlags(byId.get('echo-2026-01-20-000002')!).legacy).toBe(true);
    expect(recordBadges(byId.get('echo-2026-06-02-000012')!)[0]).toEqual({ text: 'Withdrawn', tone: 'warn' });
  });

  it('marks historical-only verification levels and only those', () => {
    for (const level of ['V4+', 'V6', 'V7', 'V8']) {
      const r = echoWith({ '/verification_level': level });
      expect(recordFlags(r).historicalLevel, level).toBe(true);
      expect(recordBadges(r).map((b) => b.text)).toContain(`${level}: historical only`);
    }
    for (const level of ['none', 'V0', 'V3', 'V4', 'V5']) expect(recordFlags(echoWith({ '/verification_level': level })).historicalLevel).toBe(false);
  });
});

describe('summarizeRecord (list items)', () => {
  it('uses the agent name, the understanding summary, and the facets', () => {
    const s = summarizeRecord(sample.find((e) => e.id === 'echo-2026-03-09-000006')!);
    expect(s.title).toBe('Marlin Analyst 3.2');
    expect(s.titleIsAgent).toBe(true);
    expect(s.excerpt.length).toBeLessThanOrEqual(221);
    expect(s.facets.record_kind).toBe('echo_v3');
  });

  it('falls back to the echo text (Markdown stripped) and to the kind', () => {
    const s = summarizeRecord(entry('r', { record_kind: 'legacy_record', archive_status: 'legacy', echo: '# Title\n\nSome **bold** <script>x</script>' }));
    expect(s.title).toBe('Legacy record');
    expect(s.titleIsAgent).toBe(false);
    expect(s.excerpt).toBe('Title Some bold <script>x</script>');
    expect(s.facets.context_depth).toBeNull();
  });

  it('truncates on a word boundary', () => {
    expect(truncate('one two three four', 12)).toBe('one two…');
    expect(truncate('short', 12)).toBe('short');
  });
});

describe('labels', () => {
  it('has a written label for every top-level field of the Echo v3 schema', () => {
    for (const key of Object.keys(echoSchema.properties)) expect(FIELD_LABELS[key], key).toBeDefined();
  });

  it("labels a record's own keys named like Object's members as words, not as Object's members", () => {
    expect(fieldLabel('constructor')).toBe('Constructor');
    expect(fieldLabel('__proto__')).toBe('Proto');
    expect(fieldLabel('to_string')).toBe('To string');
    expect(fieldLabel('hasOwnProperty')).toBe('HasOwnProperty');
    expect(humanize('value_of_constructor')).toBe('Value of constructor');
    expect(valueLabel('constructor', 'constructor')).toBe('Constructor');
    expect(valueLabel('record_kind', 'toString')).toBe('ToString');
  });

  it('gives the same label every time it is asked (labels are remembered)', () => {
    for (let i = 0; i < 3; i++) {
      expect(fieldLabel('uncertainties')).toBe(FIELD_LABELS.uncertainties);
      expect(valueLabel('record_kind', 'echo_v3')).toBe('Echo');
      expect(valueLabel('archive_status', 'echo_v3')).toBe('Echo v3');
    }
  });

  it('humanises enum values and keeps codes', () => {
    expect(valueLabel('context_depth', 'C0_homepage_only')).toBe('C0 · Homepage only');
    expect(valueLabel('agency_level', 'A4_independent_search_or_browsing_discovery')).toBe('A4 · Independent search or browsing discovery');
    expect(valueLabel('verification_level', 'V4+')).toBe('V4+');
    expect(valueLabel('verification_level', 'none')).toBe('None declared');
    expect(valueLabel('verification_scope_label', 'V3-minimal')).toBe('V3-minimal');
    expect(valueLabel('performer_class', 'ai_agent')).toBe('AI agent');
    expect(valueLabel('tool', 'scripts/build_verification_report_from_evidence.py')).toBe('scripts/build_verification_report_from_evidence.py');
    expect(humanize('url_or_path')).toBe('URL or path');
    expect(fieldLabel('some_new_field')).toBe('Some new field');
  });
});
