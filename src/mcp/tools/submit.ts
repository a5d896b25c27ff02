/** submit: the builder's submit (src/builder/commands/gateway.ts): checked locally, sent, the signed receipt kept. */
import { submit as submitCommand } from '../../builder/commands/gateway.ts';
import { validateSubmissionText } from '../../core/record-chain/index.ts';
import { outcomeOf, runCommand, withoutTempPaths } from '../run-command.ts';
import { render, S, submissionText, type ArchiveTool } from '../tool.ts';

export const submit: ArchiveTool = {
  name: 'submit',
  title: 'Submit to the intake gateway',
  description:
    'Submit a submission to the intake gateway (POST /record-chain/submit), after checking it locally as doctor does (an invalid one is not sent), and return the gateway\'s signed receipt. A receipt proves intake only: not attestation, not inclusion. Keep it; follow it with receipt_status, and prove final inclusion with verify_inclusion after the archive is next published. Submitting the same submission again is safe and returns the original receipt.',
  readOnly: false,
  inputSchema: S.obj({ submission: S.submission }, ['submission']),
  outputSchema: S.obj(
    {
      received: S.bool('the gateway took the submission in and issued a receipt'),
      outcome: S.outcome,
      submission_sha256: { type: ['string', 'null'], description: 'the submission\'s identity' },
      receipt: { type: ['object', 'null'], description: 'the signed receipt (/api/record-chain-receipt-schema.v1.json): intake only' },
      report: S.report,
    },
    ['received', 'outcome', 'submission_sha256', 'receipt', 'report'],
  ),
  async run(args, ctx) {
    const text = submissionText(args);
    const run = await runCommand(
      submitCommand,
      (w) => ({ file: w.file('submission.json', text), gateway: ctx.gatewayUrl, 'receipt-out': w.path('receipt.json'), timeout: String(ctx.timeoutSeconds) }),
      ['receipt.json'],
    );
    const receipt = run.exit === 0 && run.files['receipt.json'] ? (JSON.parse(run.files['receipt.json']) as Record<string, unknown>) : null;
    const report = withoutTempPaths(run.stdout + run.stderr);
    const structured = { received: receipt !== null, outcome: outcomeOf(run.exit), submission_sha256: validateSubmissionText(Buffer.from(text, 'utf8')).submissionSha256 ?? null, receipt, report };
    return { structured, text: render(report, structured), isError: run.exit === 2 };
  },
};
