import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { evaluateClaimGate, gateFindings } from '../../core/claim-gate/index.ts';
import { parseStrictJson } from '../../core/json/strict-parse.ts';
import { validationResultOf } from '../../core/record-chain/claim-gate.ts';
import { EXIT_NO, EXIT_OK, info, out, requireStr, str, UsageError, type CommandSpec } from '../cli.ts';
import { readInput } from './files.ts';

export const claimGate: CommandSpec = {
  name: 'claim-gate',
  summary: 'run the Claim Gate over an evidence input: what may be claimed, every downgrade and why',
  usage: 'claim-gate --input FILE [--out FILE]',
  options: [
    { name: 'input', type: 'string', value: 'FILE', required: true, description: 'the evidence input (/api/evidence-input-schema.v1.json)' },
    { name: 'out', type: 'string', value: 'FILE', description: 'also write the claim gate output there (/api/claim-gate-output-schema.v1.json)' },
  ],
  notes: [
    'Runs the gate embedded in this builder, with the published rules (/api/claim-gate-rules.json): the same gate the intake gateway and the archive run. It prints the verdict in plain words: the allowed protocol level and component levels, each required downgrade with its reason and rule, the missing evidence and the blocking failures.',
    'Exit 0 when the gate passes (PASS or PASS_WITH_DOWNGRADE: claim only what it allows), 1 when it fails (FAIL or FAIL_WITH_REASONS), 2 when the file cannot be read or is not JSON.',
  ],
  examples: ['claim-gate --input evidence.json', 'claim-gate --input evidence.json --out claim-gate-output.json'],
  async run(values) {
    const file = requireStr(values, 'input');
    const parsed = parseStrictJson(readInput(file, 'input'));
    if (parsed.value === undefined || parsed.findings.length > 0) {
      const first = parsed.findings[0];
      throw new UsageError(`--input ${file} is not strict JSON${first ? `: ${first.message}` : ''}`);
    }
    const output = evaluateClaimGate(parsed.value);
    const outPath = str(values, 'out');
    if (outPath) {
      try {
        writeFileSync(outPath, JSON.stringify(output, null, 2) + '\n');
      } catch (err) {
        throw new UsageError(`cannot write --out ${outPath}: ${(err as Error).message}`);
      }
    }
    out(gateFindings(output).join('\n') + '\n');
    const value = parsed.value as Record<string, unknown>;
    if (output.status === 'FAIL' && value !== null && typeof value === 'object' && 'evidence_input' in value && !('schema' in value)) {
      info('This file wraps an evidence input (an example?): pass its "evidence_input" object alone.');
    }
    if (outPath) info(`wrote ${resolve(outPath)}`);
    return validationResultOf(output) === 'PASS' ? EXIT_OK : EXIT_NO;
  },
};
