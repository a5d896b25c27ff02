import { parseStrictJson } from '../../core/json/strict-parse.ts';
import { GATEWAY_KEYS_SCHEMA, RECEIPT_SCHEMA, validateSubmissionText } from '../../core/record-chain/index.ts';
import { COLOR_OPTIONS, EXIT_NO, EXIT_OK, out, requireStr, str, UsageError, useColor, type CommandSpec } from '../cli.ts';
import { formatReport, reportFormat } from '../report.ts';
import { verdictLines } from './report.ts';
import { readInput } from './files.ts';

/**
 * Documents an agent may hand to doctor by mistake, by their `schema`: what each is and the command that reads it.
 * (A submission's `schema` is service.record-chain-submission.v1; anything else unnamed here is left to the checks.)
 */
const NOT_A_SUBMISSION: Record<string, (file: string) => string> = {
  [RECEIPT_SCHEMA]: (f) => `this is a receipt (${RECEIPT_SCHEMA}), not a submission: verify it with "receipt --file ${f}"`,
  [GATEWAY_KEYS_SCHEMA]: (f) => `this is a gateway keys document (${GATEWAY_KEYS_SCHEMA}), not a submission: verify a receipt against it with "receipt --file RECEIPT --keys ${f}"`,
  'service.public-index.v1': () => 'this is the public index (service.public-index.v1), not a submission: prove a record\'s inclusion with "readback --id ID --index URL" (or --file SUBMISSION)',
  'service.public-index-shard.v1': () => 'this is a shard of the public index (service.public-index-shard.v1), not a submission: prove a record\'s inclusion with "readback --id ID --index URL"',
  'service.echo.v3': () => 'this is an archived record (service.echo.v3), not a submission: check its inclusion with "readback --id ID"; a submission is built with the record commands (echo, verification, propagation, …)',
  'service.transparency-log.v1': () => 'this is the transparency log document (service.transparency-log.v1), not a submission: pin its key with "readback --log-key KEY" or "monitor --log-key KEY"',
  'service.evidence-input.v1': (f) => `this is an evidence input (service.evidence-input.v1), not a submission: evaluate it with "claim-gate --input ${f}", or build the verification submission with "report --input ${f} --key-dir DIR …"`,
  'service.claim-gate-output.v1': () => 'this is a Claim Gate output (service.claim-gate-output.v1), not a submission: the verification submission is built by "report --input EVIDENCE --key-dir DIR …"',
};

/** What the file is when it is plainly not a submission, else undefined (then the checks speak). */
function notASubmission(bytes: Uint8Array, file: string): string | undefined {
  const parsed = parseStrictJson(bytes);
  if (!parsed.isObject) {
    // A signed checkpoint (C2SP signed note): origin, size, root, a blank line, signature lines "— …".
    const text = Buffer.from(bytes).toString('utf8');
    if (/^[^\n{]+\n\d+\n[A-Za-z0-9+/]{43}=\n(?:[^\n]+\n)*\n\u2014 /.test(text)) {
      return `this is a signed checkpoint of the transparency log, not a submission: check it with "monitor --checkpoint ${file}"`;
    }
    return undefined;
  }
  const schema = (parsed.value as { schema?: unknown }).schema;
  return typeof schema === 'string' && Object.hasOwn(NOT_A_SUBMISSION, schema) ? NOT_A_SUBMISSION[schema]!(file) : undefined;
}

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
    'A file that is another document of the record chain (a receipt, gateway keys, the public index or a shard, an archived record, the log document or a checkpoint, an evidence input, a Claim Gate output) is not checked: doctor says what it is and which command reads it (exit 2).',
  ],
  examples: ['doctor --file propagation.json', 'doctor --file propagation.json --format json'],
  async run(values) {
    const file = requireStr(values, 'file');
    const format = reportFormat(str(values, 'format'));
    const bytes = readInput(file);
    const other = notASubmission(bytes, file);
    if (other) throw new UsageError(`--file ${file}: ${other}`);
    const result = validateSubmissionText(bytes);
    out(formatReport(file, result.diagnostics, format, useColor(values)));
    if (format === 'pretty' && result.valid) {
      out(`submission_sha256 ${result.submissionSha256} (record_type ${result.recordType}); signature verified offline\n`);
    }
    // A strict evidence claim: the gate's own answer, re-evaluated here as the gateway will (chain/claim-gate).
    if (format === 'pretty' && result.claimGate) out(verdictLines(result.claimGate.output).join('\n') + '\n');
    return result.valid ? EXIT_OK : EXIT_NO;
  },
};
