import { validateSubmissionText } from '../../core/record-chain/index.ts';
import { COLOR_OPTIONS, EXIT_NO, EXIT_OK, out, requireStr, str, useColor, type CommandSpec } from '../cli.ts';
import { formatReport, reportFormat } from '../report.ts';
import { verdictLines } from './report.ts';
import { readInput } from './files.ts';

export const doctor: CommandSpec = {
  name: 'doctor',
  summary: "check a submission file offline: the gateway's verdict, signature included",
  usage: 'doctor --file FILE [--format pretty|json|github]',
  options: [
    { name: 'file', type: 'string', value: 'FILE', required: true, description: 'the submission file' },
    { name: 'format', type: 'string', value: 'F', description: 'pretty (default), json or github: the formats of the archive\'s validate command' },
    ...COLOR_OPTIONS,
  ],
  notes: [
    'Runs the same checks as the gateway, from the rules and schemas embedded in this builder: limits, strict JSON, the envelope and record schemas, the propagation policy, secrets, historical-only levels, the Claim Gate on a verification that carries an evidence input (re-evaluated: its claim may not exceed the gate\'s answer), the guardian id and key hash of a guardian application or retirement against its signing key, the per-type text caps, the content hash and the Ed25519 signature. Checks that need the archive (a key already registered, a target not archived or with another SHA-256) are the gateway\'s.',
  ],
  examples: ['doctor --file propagation.json', 'doctor --file propagation.json --format json'],
  async run(values) {
    const file = requireStr(values, 'file');
    const format = reportFormat(str(values, 'format'));
    const result = validateSubmissionText(readInput(file));
    out(formatReport(file, result.diagnostics, format, useColor(values)));
    if (format === 'pretty' && result.valid) {
      out(`submission_sha256 ${result.submissionSha256} (record_type ${result.recordType}); signature verified offline\n`);
    }
    // A strict evidence claim: the gate's own answer, re-evaluated here as the gateway will (chain/claim-gate).
    if (format === 'pretty' && result.claimGate) out(verdictLines(result.claimGate.output).join('\n') + '\n');
    return result.valid ? EXIT_OK : EXIT_NO;
  },
};
