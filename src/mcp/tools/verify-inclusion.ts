/**
 * verify_inclusion: the builder's readback (src/builder/commands/readback.ts): the record's bytes, the public index,
 * and the inclusion proof against the log's signed checkpoint; the checkpoint comes back for check_log_consistency.
 */
import { readback } from '../../builder/commands/readback.ts';
import { outcomeOf, runCommand, withoutTempPaths } from '../run-command.ts';
import { render, S, stringArg, stringListArg, submissionText, ToolInputError, type ArchiveTool } from '../tool.ts';

export const verifyInclusion: ArchiveTool = {
  name: 'verify_inclusion',
  title: 'Prove final inclusion',
  description:
    'Prove that a record is finally included (the builder\'s readback): the public index lists it, the raw record\'s bytes hash to the index\'s sha256, and, when the site has a transparency log, those bytes are a leaf of the tree of its signed checkpoint (an inclusion proof from the log\'s tiles). Give exactly one of id, submission_sha256 or submission. Keep the checkpoint it returns: check_log_consistency proves later that the log still extends it.',
  readOnly: true,
  inputSchema: S.obj({
    id: S.str('a record id'),
    submission_sha256: { ...S.hex64, description: 'the submission_sha256 (from submit, or the receipt)' },
    submission: S.submission,
    log_key: S.arr({ type: 'string' }, 'the log\'s verifier key(s) to pin (<name>+<key ID>+<key>), instead of trusting the site\'s /api/log.json'),
  }),
  outputSchema: S.obj(
    {
      included: S.bool('finally included: listed, bytes match, and (with a log) proven in the signed tree'),
      outcome: S.outcome,
      checkpoint: S.nstr('the signed checkpoint the inclusion was proven against (keep it), or null'),
      report: S.report,
    },
    ['included', 'outcome', 'checkpoint', 'report'],
  ),
  async run(args, ctx) {
    const id = stringArg(args, 'id');
    const sha = stringArg(args, 'submission_sha256');
    const given = [id, sha, args.submission].filter((v) => v !== undefined && v !== null).length;
    if (given !== 1) throw new ToolInputError('give exactly one of "id", "submission_sha256" or "submission"');
    const keys = stringListArg(args, 'log_key');
    const run = await runCommand(
      readback,
      (w) => ({
        index: ctx.site.url('/api/index.json'),
        'save-checkpoint': w.path('checkpoint.txt'),
        timeout: String(ctx.timeoutSeconds),
        ...(id !== undefined ? { id } : sha !== undefined ? { 'submission-sha256': sha } : { file: w.file('submission.json', submissionText(args)) }),
        ...(keys ? { 'log-key': keys } : {}),
      }),
      ['checkpoint.txt'],
    );
    const report = withoutTempPaths(run.stdout + run.stderr);
    const structured = { included: run.exit === 0, outcome: outcomeOf(run.exit), checkpoint: run.files['checkpoint.txt'] ?? null, report };
    return { structured, text: render(report, structured), isError: run.exit === 2 };
  },
};
