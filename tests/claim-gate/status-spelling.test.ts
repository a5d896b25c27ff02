/**
 * One spelling of every Claim Gate status: the gate output schema's enum (schemas/claim-gate-output-schema.v1.json).
 * Whatever spelling a record's claim_gate_output uses (PASS_WITH_DOWNGRADE, passed_with_downgrades, …), every machine
 * value the archive publishes for it — the public index's claim_gate_status, the record page's data-claim-gate-status
 * and code element, the builder's claim-gate output — is a member of that enum; only the words for a reader differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { buildPublicIndex } from '../../src/core/publish/public-index.ts';
import { claimGateStatusOf } from '../../src/core/record/gate-output.ts';
import { boundaryInput, fullInput } from '../../scripts/lib/claim-gate-inputs.ts';
import { bundledBuilder } from '../builder/helpers.ts';
import { recordPageMain } from '../helpers/claim-gate-section.ts';
import { echoWith, REPO_ROOT } from '../helpers/records.ts';
import { publishRecord } from '../publish/helpers.ts';

const SCHEMA = JSON.parse(readFileSync(join(REPO_ROOT, 'schemas/claim-gate-output-schema.v1.json'), 'utf8'));
const ENUM: string[] = SCHEMA.properties.status.enum;

/** Spellings seen in records and in this project's past, each with the enum value it means. */
const SPELLINGS: [string, string][] = [
  ['PASS', 'PASS'],
  ['passed', 'PASS'],
  ['PASS_WITH_DOWNGRADE', 'PASS_WITH_DOWNGRADE'],
  ['pass_with_downgrades', 'PASS_WITH_DOWNGRADE'],
  ['passed_with_downgrades', 'PASS_WITH_DOWNGRADE'],
  ['Pass with downgrades', 'PASS_WITH_DOWNGRADE'],
  ['FAIL', 'FAIL'],
  ['fail', 'FAIL'],
  ['FAIL_WITH_REASONS', 'FAIL_WITH_REASONS'],
  ['failed_with_reasons', 'FAIL_WITH_REASONS'],
];

const record = (status: string) => echoWith({ '/verification_level': 'V2', '/verification_scope_label': 'single_reference_check', '/claim_gate_output': { status, allowed_protocol_level: 'V2' } });

/** The record page's machine values for the verdict: the data attribute and the code element of the same cell. */
function pageValues(status: string): { attribute: string | undefined; code: string | undefined } {
  const doc = parseDocument(recordPageMain(record(status)));
  const cell = DomUtils.findOne((e) => e.attribs['data-claim-gate-status'] !== undefined, doc.children, true);
  const code = cell ? DomUtils.findOne((e) => e.name === 'code', cell.children, true) : null;
  return { attribute: cell?.attribs['data-claim-gate-status'], code: code ? DomUtils.textContent(code) : undefined };
}

describe('one spelling of every Claim Gate status: the gate output schema’s enum', () => {
  it('the enum is the four statuses the gate writes', () => {
    expect(ENUM).toEqual(['PASS', 'PASS_WITH_DOWNGRADE', 'FAIL', 'FAIL_WITH_REASONS']);
  });

  it.each(SPELLINGS)('a record that writes %s: the index and the page publish %s, a member of the enum', (spelling, value) => {
    expect(ENUM).toContain(value);
    expect(claimGateStatusOf(spelling)).toBe(value);
    const [entry] = buildPublicIndex([publishRecord('2026/echo-2026-01-01-000001.json', record(spelling))]).entries;
    expect(entry!.claim_gate_status).toBe(value);
    expect(entry!.submitted.claim_gate_status).toBe(spelling);
    expect(pageValues(spelling)).toEqual({ attribute: value, code: value });
  });

  it('a status that is none of the gate’s gets no machine value: null in the index, no data attribute on the page', () => {
    expect(claimGateStatusOf('approved')).toBeUndefined();
    expect(buildPublicIndex([publishRecord('2026/echo-2026-01-01-000001.json', record('approved'))]).entries[0]!.claim_gate_status).toBeNull();
    expect(pageValues('approved')).toEqual({ attribute: undefined, code: undefined });
  });

  describe('the builder', () => {
    const builder = bundledBuilder({ siteUrl: 'https://archive.example.test', gatewayUrl: 'https://gateway.example.test' });
    const inputs: [string, unknown][] = [
      ['PASS', fullInput()],
      ['PASS_WITH_DOWNGRADE', { ...fullInput(), claims_requested_by_agent: ['V8'] }],
      ['FAIL_WITH_REASONS', { ...fullInput(), claims_requested_by_agent: ['V5', 'truth proven'] }],
      ['FAIL', { ...boundaryInput(), extra: 1 }],
    ];
    it.each(inputs)('claim-gate writes %s, a member of the enum, in its output file and its verdict line', async (want, input) => {
      const dir = builder.tempDir();
      const file = join(dir, 'evidence.json');
      const out = join(dir, 'gate.json');
      writeFileSync(file, JSON.stringify(input));
      const r = await builder.run(['claim-gate', '--input', file, '--out', out]);
      const status = JSON.parse(readFileSync(out, 'utf8')).status;
      expect(status).toBe(want);
      expect(ENUM).toContain(status);
      expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^Claim Gate ${status}: `));
    }, 30_000);
  });
});
