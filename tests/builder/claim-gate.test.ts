/** The bundled builder's claim-gate command: the gate's verdict in plain words, the output file, exit codes. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateClaimGate, gateFindings } from '../../src/core/claim-gate/index.ts';
import { fullInput } from '../../scripts/lib/claim-gate-inputs.ts';
import { bundledBuilder } from './helpers.ts';

const builder = bundledBuilder({ siteUrl: 'https://archive.example.test', gatewayUrl: 'https://gateway.example.test' });

function inputFile(value: unknown, text = JSON.stringify(value, null, 2)): string {
  const file = join(builder.tempDir(), 'evidence.json');
  writeFileSync(file, text);
  return file;
}

describe('claim-gate', () => {
  it('passes an input its evidence supports: exit 0, the verdict, the output written byte-stably', async () => {
    const input = { ...fullInput(), claims_requested_by_agent: ['V8'] };
    const file = inputFile(input);
    const out1 = join(builder.tempDir(), 'gate.json');
    const out2 = join(builder.tempDir(), 'gate.json');
    const r = await builder.run(['claim-gate', '--input', file, '--out', out1]);
    expect(r.code, r.stderr).toBe(0);
    const expected = evaluateClaimGate(input);
    expect(r.stdout).toBe(gateFindings(expected).join('\n') + '\n');
    expect(r.stdout).toContain('Downgrade V8 → V5 [gate/historical-only]');
    expect(JSON.parse(readFileSync(out1, 'utf8'))).toEqual(expected);
    expect((await builder.run(['claim-gate', '--input', file, '--out', out2])).code).toBe(0);
    expect(readFileSync(out2, 'utf8')).toBe(readFileSync(out1, 'utf8'));
  });

  it('fails an inflated or blocked input: exit 1 with the reasons', async () => {
    const r = await builder.run(['claim-gate', '--input', inputFile({ ...fullInput(), claims_requested_by_agent: ['V5', 'truth proven'] })]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Claim Gate FAIL_WITH_REASONS: allowed protocol level V0/);
    expect(r.stdout).toContain('Blocking failure: the claim "truth proven" is forbidden');
    const wrapped = await builder.run(['claim-gate', '--input', inputFile({ evidence_input: fullInput() })]);
    expect(wrapped.code).toBe(1);
    expect(wrapped.stderr).toContain('pass its "evidence_input" object alone');
  });

  it('a file that is missing or not strict JSON is an input error (exit 2), and --input is required', async () => {
    expect((await builder.run(['claim-gate', '--input', join(builder.tempDir(), 'none.json')])).stderr).toContain('no such file');
    const dup = await builder.run(['claim-gate', '--input', inputFile(null, '{"schema": 1, "schema": 2}')]);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('is not strict JSON');
    expect((await builder.run(['claim-gate'])).code).toBe(2);
  });
});
