/** check_log_consistency: the builder's monitor (src/builder/commands/monitor.ts) against a checkpoint the agent kept. */
import { monitor } from '../../builder/commands/monitor.ts';
import { outcomeOf, runCommand, withoutTempPaths } from '../run-command.ts';
import { render, S, stringArg, stringListArg, ToolInputError, type ArchiveTool } from '../tool.ts';

export const checkLogConsistency: ArchiveTool = {
  name: 'check_log_consistency',
  title: 'Check the log kept its history',
  description:
    'Prove that the archive\'s transparency log still extends a signed checkpoint you kept (from verify_inclusion or an earlier call): nothing logged before it was changed or dropped (the builder\'s monitor, a consistency proof from the site\'s tiles). When history was rewritten, the answer holds both signed checkpoints as proof for anyone with the log key.',
  readOnly: true,
  inputSchema: S.obj(
    {
      checkpoint: S.str('the signed checkpoint note you kept, exactly as returned'),
      log_key: S.arr({ type: 'string' }, 'the log\'s verifier key(s) to pin, instead of trusting the site\'s /api/log.json'),
    },
    ['checkpoint'],
  ),
  outputSchema: S.obj(
    {
      consistent: S.bool('the current signed tree extends the kept one'),
      outcome: S.outcome,
      current_checkpoint: S.nstr('the site\'s current signed checkpoint when consistent (keep it for next time)'),
      report: S.report,
    },
    ['consistent', 'outcome', 'current_checkpoint', 'report'],
  ),
  async run(args, ctx) {
    const note = stringArg(args, 'checkpoint');
    if (!note) throw new ToolInputError('"checkpoint" must be the signed checkpoint text');
    const keys = stringListArg(args, 'log_key');
    const run = await runCommand(
      monitor,
      (w) => ({ checkpoint: w.file('checkpoint.txt', note), site: ctx.site.base, update: true, timeout: String(ctx.timeoutSeconds), ...(keys ? { 'log-key': keys } : {}) }),
      ['checkpoint.txt'],
    );
    const report = withoutTempPaths(run.stdout + run.stderr);
    const structured = { consistent: run.exit === 0, outcome: outcomeOf(run.exit), current_checkpoint: run.exit === 0 ? (run.files['checkpoint.txt'] ?? null) : null, report };
    return { structured, text: render(report, structured), isError: run.exit === 2 };
  },
};
