/**
 * A record's verdict depends on its content, not its layout: shuffled members at every depth and random
 * whitespace/indentation leave a valid record valid, and a problem is still placed at its value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRecord } from '../../src/core/archive/check-record.ts';
import { signRecordAuthorship } from '../../src/core/crypto/authorship-proof.ts';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { locateFindings } from '../../src/core/diagnostics/locate.ts';
import { parseStrictJson } from '../../src/core/json/strict-parse.ts';
import type { ArchiveLookup, ArchiveRecord, JsonObject } from '../../src/core/rules/rule.ts';
import { rng, writeRandomly } from '../helpers/random-json.ts';
import { echoWith, REMOVE, validEcho } from '../helpers/records.ts';

const keys = generateEd25519KeyPair();
const REPORT_PATH = 'reports/echo-2026-04-30-000001.json';
const REPORT = echoWith({ '/record_kind': 'verification_report_v2' });

const VALID: Record<string, JsonObject> = {
  'echo_v3 base record': validEcho(),
  'signed record': signRecordAuthorship(validEcho(), keys.privateKey, keys.publicKey),
  'legacy record': echoWith({
    '/record_kind': 'legacy_record',
    '/schema': REMOVE,
    '/echo_version': REMOVE,
    '/agent_identity': REMOVE,
    '/echo': REMOVE,
    '/boundary_acknowledgement': REMOVE,
  }),
  'report echo': echoWith({
    '/record_kind': 'echo_v3_with_verification_report',
    '/linked_verification_report': { schema_version: 'v3', path: `/${REPORT_PATH}` },
    '/generated_by': {
      builder_version: '1',
      claim_gate_output: 'x',
      evidence_input: 'y',
      generated_at_utc: '2026-05-01T00:00:00Z',
      validation_command: 'z',
      validation_result: 'PASS',
      extra_field: { nested: [1, 2, { deep: true }] },
    },
  }),
};

/** Reads `text` strictly and judges it as validateArchive would (schema + every record rule, placed). */
function judgeText(text: string) {
  const parsed = parseStrictJson(text);
  const file: ArchiveRecord = { path: 'echo-2026-05-01-000001.json', id: 'echo-2026-05-01-000001', record: parsed.value as JsonObject };
  const archive: ArchiveLookup = {
    recordAt: (p) => (p === REPORT_PATH ? { path: p, id: 'echo-2026-04-30-000001', record: REPORT } : undefined),
  };
  const findings = [...parsed.findings, ...(parsed.isObject ? checkRecord(parsed.value as JsonObject, file, archive) : [])];
  return locateFindings(findings, text);
}

describe('layout invariance', () => {
  it.each(Object.entries(VALID))('%s: valid in its plain form', (_name, record) => {
    expect(judgeText(JSON.stringify(record))).toEqual([]);
  });

  it.each(Object.entries(VALID))('%s: stays valid under any member order and whitespace', (_name, record) => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const { text } = writeRandomly(record, rng(seed), { shuffleKeys: true });
        expect(judgeText(text)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('a problem is placed at its value token whatever the layout', () => {
    const record = echoWith({ '/context_depth': 'C0_homepage_only', '/extensions/review_notes/governance_note': 1 });
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const { text } = writeRandomly(record, rng(seed), { shuffleKeys: true });
        const diags = judgeText(text);
        expect(diags.map((d) => d.rule).sort()).toEqual(['cross/c0-assessment', 'cross/extensions-keys']);
        const lines = text.split('\n');
        const at = (d: (typeof diags)[number]) => lines[d.line - 1]!.slice(d.column - 1);
        // the c0 finding points at the assessment_state value, the extensions finding at the key
        expect(at(diags.find((d) => d.rule === 'cross/c0-assessment')!)).toMatch(/^"qualified_assessment"/);
        expect(at(diags.find((d) => d.rule === 'cross/extensions-keys')!)).toMatch(/^"governance_note"/);
        // and the list is in text order
        const order = diags.map((d) => d.line * 1e6 + d.column);
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }),
      { numRuns: 150 },
    );
  });
});
