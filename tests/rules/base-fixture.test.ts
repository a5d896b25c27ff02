import { describe, expect, it } from 'vitest';
import { archiveRules, recordRules } from '../../src/core/rules/index.ts';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { echoWith, judge, REMOVE, TESTS_DIR, validEcho } from '../helpers/records.ts';

describe('the shared base record (tests/fixtures/records/valid-echo.json)', () => {
  it('is a complete echo_v3 record with no diagnostics at all', () => {
    const record = validEcho();
    expect(record.record_kind).toBe('echo_v3');
    expect(judge(record)).toEqual([]);
  });

  it('is cloned, not shared: patching one copy leaves the next intact', () => {
    const a = echoWith({ '/discovery_provenance/source': 'human_directed', '/echo': REMOVE });
    expect((a.discovery_provenance as { source: string }).source).toBe('human_directed');
    expect('echo' in a).toBe(false);
    const b = validEcho();
    expect((b.discovery_provenance as { source: string }).source).toBe('search_engine');
    expect(typeof b.echo).toBe('string');
  });
});

describe('rule registry', () => {
  const all = [...archiveRules, ...recordRules];

  it('has unique rule ids of the form group/name', () => {
    const ids = all.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^(file|cross|state|draft)\/[a-z0-9-]+$/);
  });

  it('lists the four archive rules, the record rules the specification and DECISIONS call for, and the placeholder rule', () => {
    expect(archiveRules.map((r) => r.id).sort()).toEqual(
      ['file/duplicate-id', 'file/not-json', 'file/record-name', 'file/too-large'].sort(),
    );
    expect(recordRules.map((r) => r.id).sort()).toEqual(
      [
        'cross/accepted-attestation-class',
        'cross/authorship-proof',
        'cross/c0-assessment',
        'cross/claim-gate-level',
        'cross/derived-counts',
        'cross/extensions-keys',
        'cross/extensions-values',
        'cross/failed-validation-claim',
        'cross/guardian-fields',
        'cross/guardian-presence-proof',
        'cross/guardian-proof-required',
        'cross/guardian-verification-result',
        'cross/linked-report',
        'cross/origin-classification-missing',
        'cross/report-fields',
        'cross/unknown-agency',
        'cross/unsolicited-provenance',
        'cross/v2-scope-label',
        'cross/v3-scope-label',
        'state/superseded-reason',
        'draft/placeholder',
      ].sort(),
    );
  });

  it.each(all.map((r) => [r.id]))('%s has its own test file under tests/rules/', (id) => {
    expect(existsSync(resolve(TESTS_DIR, 'rules', `${id}.test.ts`))).toBe(true);
  });

  it.each(all.map((r) => [r.id, r.summary]))('%s has a one-line summary', (_id, summary) => {
    expect(summary.length).toBeGreaterThan(20);
    expect(summary).not.toContain('\n');
  });
});
