/** run_claim_gate: the builder's claim-gate command (the core's Claim Gate, published rules) on an evidence input. */
import evidenceInputSchema from '../../../schemas/evidence-input-schema.v1.json' with { type: 'json' };
import claimGateOutputSchema from '../../../schemas/claim-gate-output-schema.v1.json' with { type: 'json' };
import { claimGate } from '../../builder/commands/claim-gate.ts';
import { outcomeOf, runCommand, withoutTempPaths } from '../run-command.ts';
import { render, S, ToolInputError, type ArchiveTool } from '../tool.ts';

/** A schema of schemas/ embedded in a tool's schema: its own $id kept (its $refs resolve against it), no $schema. */
export function embedded(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

export const runClaimGate: ArchiveTool = {
  name: 'run_claim_gate',
  title: 'Run the Claim Gate',
  description:
    'Run the Claim Gate (the same gate the builder, the intake gateway and the archive run, with the published rules /api/claim-gate-rules.json) over an evidence input (/api/evidence-input-schema.v1.json): what may be claimed, every required downgrade and why, the missing evidence and the blocking failures. PASS or PASS_WITH_DOWNGRADE: claim only what it allows.',
  readOnly: true,
  inputSchema: S.obj({ evidence_input: embedded(evidenceInputSchema as Record<string, unknown>) }, ['evidence_input']),
  outputSchema: S.obj(
    {
      passes: S.bool('the gate passes (PASS or PASS_WITH_DOWNGRADE)'),
      outcome: S.outcome,
      output: { anyOf: [embedded(claimGateOutputSchema as Record<string, unknown>), { type: 'null' }], description: 'the gate output (/api/claim-gate-output-schema.v1.json); null when the input could not be read' },
      report: S.report,
    },
    ['passes', 'outcome', 'output', 'report'],
  ),
  async run(args) {
    const input = args.evidence_input;
    if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new ToolInputError('"evidence_input" must be the evidence input object');
    const run = await runCommand(claimGate, (w) => ({ input: w.file('evidence.json', JSON.stringify(input)), out: w.path('output.json') }), ['output.json']);
    const output = run.files['output.json'] ? (JSON.parse(run.files['output.json']) as Record<string, unknown>) : null;
    const report = withoutTempPaths(run.stdout + run.stderr);
    const structured = { passes: run.exit === 0, outcome: outcomeOf(run.exit), output, report };
    return { structured, text: render(report, structured), isError: run.exit === 2 };
  },
};
