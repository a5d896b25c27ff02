/** Facet counts: withdrawn records are left out, attestation counts follow DECISIONS 18. */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FACETS, FACET_NAMES, archiveCounts } from '../../src/core/publish/facets.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { archiveRecords, echoWith } from './helpers.ts';

describe('archiveCounts', () => {
  it('counts each facet value, leaving withdrawn records out', () => {
    const counts = archiveCounts([
      echoWith({}),
      echoWith({ '/record_kind': 'test_record', '/archive_status': 'test_record', '/independence_class': 'test_record' }),
      echoWith({ '/verification_status': 'invalidated' }),
      { record_kind: 'legacy_record', archive_status: 'legacy', independence_class: 'legacy' },
    ]);
    expect(counts).toMatchObject({ records: 4, withdrawn: 1, counted: 3, counts_as_attestation: 0 });
    expect(counts.by_record_kind).toMatchObject({ echo_v3: 1, test_record: 1, legacy_record: 1 });
    expect(counts.by_archive_status).toMatchObject({ accepted_echo: 1, test_record: 1, legacy: 1 });
    // The legacy record has no context depth: counted as not set, so every facet's counts sum to counted (issue 26).
    expect(counts.by_context_depth.not_set).toBe(1);
    for (const facet of FACET_NAMES) {
      expect(Object.values(counts[`by_${facet}` as const]).reduce((a, b) => a + b, 0), facet).toBe(counts.counted);
    }
  });

  it('lists every vocabulary value in schema order, zeros included', () => {
    const counts = archiveCounts([]);
    for (const facet of FACET_NAMES) {
      const map = counts[`by_${facet}` as const];
      expect(Object.keys(map)).toEqual([...FACETS[facet], 'not_set']);
      expect(Object.values(map).every((n) => n === 0)).toBe(true);
    }
  });

  it('attestation counts follow DECISIONS 18: only accepted_independent_attestation, not withdrawn, opted out or test', () => {
    const accepted = { '/archive_status': 'accepted_independent_attestation', '/counts_as_independent_attestation': true };
    const counts = archiveCounts([
      echoWith(accepted),
      echoWith({ ...accepted, '/do_not_count_as_attestation': true }),
      echoWith({ ...accepted, '/verification_status': 'invalidated' }),
      echoWith({ ...accepted, '/record_kind': 'test_record' }),
      // Claims alone never count: rejected, superseded, test, needs-review and accepted_echo records that claim it.
      ...['rejected', 'superseded', 'test_record', 'needs_human_review', 'accepted_echo'].map((status) =>
        echoWith({ '/archive_status': status, '/superseded_reason': 'x', '/counts_as_independent_attestation': true, '/origin_classification': { counts_as_formal_independent_attestation: true } }),
      ),
    ]);
    expect(counts.counts_as_attestation).toBe(1);
  });

  it('on the project archive, each facet sums to at most the counted records, and record kinds to exactly them', async () => {
    const records = (await archiveRecords(resolve(REPO_ROOT, 'records'))).map((r) => r.record);
    const counts = archiveCounts(records);
    const sum = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
    expect(counts.counted).toBe(records.filter((r) => r.verification_status !== 'invalidated').length);
    expect(sum(counts.by_record_kind)).toBe(counts.counted);
    expect(sum(counts.by_archive_status)).toBe(counts.counted);
    expect(sum(counts.by_independence_class)).toBe(counts.counted);
    for (const facet of FACET_NAMES) expect(sum(counts[`by_${facet}` as const])).toBeLessThanOrEqual(counts.counted);
  });
});
