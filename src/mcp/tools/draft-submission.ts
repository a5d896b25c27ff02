/**
 * draft_submission (stdio only): the builder's own record command for the record type (src/builder/records.ts and
 * the commands beside it) builds and signs the submission with the agent's key directory, in the agent's process;
 * then doctor runs on it. Never served over HTTP: a server holds no agent's key.
 */
import { doctor } from '../../builder/commands/doctor.ts';
import type { CommandSpec } from '../../builder/cli.ts';
import { RECORD_TYPES, validateSubmissionText } from '../../core/record-chain/index.ts';
import { outcomeOf, runCommand, withoutTempPaths } from '../run-command.ts';
import { render, S, stringArg, ToolInputError, type ArchiveTool } from '../tool.ts';

/** The builder command that builds records of `type` (its summary names the record_type). */
export function recordCommandFor(commands: readonly CommandSpec[], type: string): CommandSpec | undefined {
  return commands.find((c) => c.summary.includes(`(record_type ${type})`)) ?? commands.find((c) => c.name === type.replaceAll('_', '-'));
}

export const draftSubmission: ArchiveTool = {
  name: 'draft_submission',
  title: 'Build and sign a submission',
  description:
    'Build and sign a record-chain submission of any record type from its record fields, with your own key directory (the builder\'s record command for that type: it fills in the constants and boundary flags, signs with your Ed25519 key and checks the envelope), then run doctor on it (the gateway\'s verdict, offline). Signing happens on your machine only. Next: preflight, then submit.',
  transports: ['stdio'],
  readOnly: false,
  inputSchema: S.obj(
    {
      record_type: S.str('the record type', { enum: [...RECORD_TYPES] }),
      fields: { type: 'object', description: 'the record\'s fields, as the record type\'s schema names them (e.g. agent_identity, summary, …): what the builder\'s --content file holds' },
    },
    ['record_type', 'fields'],
  ),
  outputSchema: S.obj(
    {
      valid: S.bool('built, signed, and doctor finds it valid'),
      outcome: S.outcome,
      record_type: S.str('the record type'),
      submission_sha256: { type: ['string', 'null'], description: 'the submission\'s identity' },
      submission: { type: ['object', 'null'], description: 'the signed submission (pass it to preflight and submit as it is)' },
      report: S.report,
      doctor_report: S.report,
    },
    ['valid', 'outcome', 'record_type', 'submission_sha256', 'submission', 'report', 'doctor_report'],
  ),
  async run(args, ctx) {
    const type = stringArg(args, 'record_type') ?? '';
    const fields = args.fields;
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw new ToolInputError('"fields" must be an object of record fields');
    if (!ctx.keyDir) throw new ToolInputError('no key directory: start the server with --key-dir DIR (create one with "keygen --key-dir DIR")');
    const command = recordCommandFor(ctx.commands, type);
    if (!command) throw new ToolInputError(`this builder has no command for record_type "${type}"; it builds ${RECORD_TYPES.filter((t) => recordCommandFor(ctx.commands, t)).join(', ')}`);
    const built = await runCommand(command, (w) => ({ 'key-dir': ctx.keyDir, content: w.file('fields.json', JSON.stringify(fields)), out: w.path('submission.json') }), ['submission.json']);
    const text = built.files['submission.json'];
    let doctorRun = { exit: 1, stdout: '', stderr: '' };
    if (text !== undefined) doctorRun = await runCommand(doctor, (w) => ({ file: w.file('submission.json', text) }));
    const checked = text !== undefined ? validateSubmissionText(Buffer.from(text, 'utf8')) : undefined;
    const exit = built.exit !== 0 ? built.exit : doctorRun.exit;
    const structured = {
      valid: exit === 0,
      outcome: outcomeOf(exit),
      record_type: type,
      submission_sha256: checked?.submissionSha256 ?? null,
      submission: text !== undefined ? (JSON.parse(text) as Record<string, unknown>) : null,
      report: withoutTempPaths(built.stdout.startsWith('{') ? built.stderr : built.stdout + built.stderr),
      doctor_report: withoutTempPaths(doctorRun.stdout + doctorRun.stderr),
    };
    return { structured, text: render(`${structured.report}${structured.doctor_report}`, structured), isError: exit === 2 };
  },
};
