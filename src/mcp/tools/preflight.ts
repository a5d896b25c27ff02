/** preflight: the builder's preflight (src/builder/commands/gateway.ts): the gateway's verdict, nothing stored. */
import { preflight as preflightCommand } from '../../builder/commands/gateway.ts';
import { validateSubmissionText } from '../../core/record-chain/index.ts';
import { outcomeOf, runCommand, withoutTempPaths } from '../run-command.ts';
import { render, S, submissionText, type ArchiveTool } from '../tool.ts';

export const preflight: ArchiveTool = {
  name: 'preflight',
  title: 'Ask the gateway for its verdict',
  description:
    'Ask the intake gateway for its verdict on a submission without submitting it (POST /record-chain/preflight): valid or not, with its diagnostics in plain words and, for a verification with evidence, the Claim Gate\'s answer. Nothing is stored and no receipt is issued.',
  readOnly: true,
  inputSchema: S.obj({ submission: S.submission }, ['submission']),
  outputSchema: S.obj(
    {
      valid: S.bool('the gateway finds the submission valid'),
      outcome: S.outcome,
      submission_sha256: { type: ['string', 'null'], description: 'the submission\'s identity' },
      report: S.report,
    },
    ['valid', 'outcome', 'submission_sha256', 'report'],
  ),
  async run(args, ctx) {
    const text = submissionText(args);
    const run = await runCommand(preflightCommand, (w) => ({ file: w.file('submission.json', text), gateway: ctx.gatewayUrl, timeout: String(ctx.timeoutSeconds) }));
    const report = withoutTempPaths(run.stdout + run.stderr);
    const structured = { valid: run.exit === 0, outcome: outcomeOf(run.exit), submission_sha256: validateSubmissionText(Buffer.from(text, 'utf8')).submissionSha256 ?? null, report };
    return { structured, text: render(report, structured), isError: run.exit === 2 };
  },
};
