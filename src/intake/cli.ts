/**
 * `npm run intake -- list [--status pending|accepted|rejected] | show ID | accept ID | reject ID --reason TEXT | recover`
 *
 * Intake review on the gateway's store (GATEWAY_DATABASE_URL when set, else GATEWAY_DATA_DIR, default .gateway-data/). ID is a receipt id or a
 * submission_sha256. `accept` writes the submission into the archive (RECORDS_DIR, default records/) as an Echo v3
 * record (to-echo-record.ts), validated by the core before it is written, and marks the receipt accepted. A
 * correction also supersedes (or withdraws) the record it corrects, in the same commit (correction.ts, journal.ts);
 * one signed by another key is rejected with the reason. A guardian_application, guardian_retirement or
 * classification_update is checked against the archive first (guardian-binding.ts: one guardian per key, a retirement
 * by the registered key of an archived application, an update of an archived record's current classification); its
 * target's file is never rewritten. `reject` records the reason. `recover` finishes an accept
 * that was interrupted (every accept does this first). Exit status: 0 done, 1 refused or rejected (invalid record,
 * not pending, not found, correction by another key), 2 usage or storage error.
 */
import { recordsRoot } from '../core/config.ts';
import { validateSubmissionText, type ReceiptState } from '../core/record-chain/index.ts';
import { gatewaySettings } from '../gateway/config.ts';
import { openSubmissionStore } from '../gateway/open-store.ts';
import type { StoredSubmission, SubmissionStore } from '../gateway/store.ts';
import { writeArchiveRecord } from './archive-writer.ts';
import { composeAccept } from './correction.ts';
import { JournalError, recoverJournal } from './journal.ts';
import { AcceptRefused, AcceptRejected } from './refusals.ts';

export interface IntakeIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
  now: () => Date;
}

class Refusal extends Error {}
class Usage extends Error {}

const USAGE = 'usage: intake list [--status pending|accepted|rejected] | show ID | accept ID | reject ID --reason TEXT | recover';

const HELP = [
  'Review what the intake gateway took in (npm run intake -- COMMAND).',
  '',
  USAGE,
  '',
  '  list      every submission, one line each: receipt id, submission_sha256, record type, received, status',
  '  show ID   one submission (ID: its receipt id or submission_sha256)',
  '  accept ID write it into the archive (RECORDS_DIR, default records/); a correction signed by the same key also',
  '            marks the record it corrects superseded, both files or neither (docs/lifecycle.md)',
  '            a guardian retirement or classification update must name an archived record by id and SHA-256',
  '            (docs/guardians.md); the named record\'s file is never rewritten',
  '  reject ID --reason TEXT   refuse it; the receipt status route reports the reason',
  '  recover   finish an accept that was interrupted (the archive refuses to load until then)',
  '',
  'The store is the gateway\'s: GATEWAY_DATA_DIR (SQLite) or GATEWAY_DATABASE_URL (PostgreSQL).',
  'Exit status: 0 done, 1 refused (not pending, not found, correction by another key), 2 usage or storage error.',
].join('\n');

function summaryLine(s: StoredSubmission): string {
  return [s.receiptId, s.submissionSha256, s.recordType, s.receivedAt, s.status + (s.archivePath ? ` ${s.archivePath}` : '') + (s.reason ? ` (${s.reason})` : '')].join('\t');
}

async function find(store: SubmissionStore, id: string | undefined): Promise<StoredSubmission> {
  if (!id) throw new Usage('an ID (receipt id or submission_sha256) is required');
  const found = await store.get(id);
  if (!found) throw new Refusal(`no submission with receipt id or submission_sha256 ${id}`);
  return found;
}

async function accept(store: SubmissionStore, s: StoredSubmission, io: IntakeIo): Promise<void> {
  if (s.status !== 'pending') throw new Refusal(`${s.receiptId} is already ${s.status}`);
  const judged = validateSubmissionText(s.submissionText);
  if (!judged.valid || !judged.submission) {
    throw new Refusal(`the stored submission no longer passes the core's checks: ${judged.diagnostics.map((d) => `${d.rule} ${d.message}`).join('; ')}`);
  }
  const submission = judged.submission;
  const now = io.now();
  const root = recordsRoot(io.env);
  recover(root, io);
  const reference = { receiptId: s.receiptId, receivedAt: s.receivedAt, submissionSha256: s.submissionSha256 };
  let outcome;
  try {
    outcome = await writeArchiveRecord(root, s.submissionSha256, now, composeAccept(submission, reference));
  } catch (err) {
    if (err instanceof AcceptRejected) {
      await store.decide(s.receiptId, { status: 'rejected', reason: err.message, decidedAt: now.toISOString() });
      throw new Refusal(`rejected ${s.receiptId}: ${err.message}`);
    }
    if (err instanceof AcceptRefused || err instanceof JournalError) throw new Refusal(`${err.message}; nothing was written`);
    throw err;
  }
  if ('invalid' in outcome) {
    for (const [path, diagnostics] of outcome.invalid) {
      for (const d of diagnostics) io.err(`${path}:${d.line}:${d.column} ${d.severity} ${d.rule} ${d.message}`);
    }
    throw new Refusal(`the record would not be valid in the archive; nothing was written`);
  }
  const archivePath = outcome.written ? outcome.path : outcome.alreadyArchived;
  await store.decide(s.receiptId, { status: 'accepted', archivePath, decidedAt: now.toISOString() });
  if (!outcome.written) return io.out(`accepted ${s.receiptId}: already archived as ${root}/${archivePath}`);
  const updated = outcome.updated.map((p) => `, superseded ${root}/${p}`).join('');
  io.out(`accepted ${s.receiptId}: wrote ${root}/${archivePath}${updated}`);
}

/** Finishes an interrupted accept, if there is one (journal.ts); whether there was one. */
function recover(root: string, io: IntakeIo): boolean {
  let written: string[] | undefined;
  try {
    written = recoverJournal(root);
  } catch (err) {
    if (err instanceof JournalError) throw new Refusal(err.message);
    throw err;
  }
  if (written === undefined) return false;
  io.out(`recovered an interrupted accept: ${written.length > 0 ? written.map((p) => `${root}/${p}`).join(', ') : 'every file was already written'}`);
  return true;
}

export async function runIntake(argv: readonly string[], io: IntakeIo, store?: SubmissionStore): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(HELP);
    return 0;
  }
  let own: SubmissionStore | undefined;
  try {
    if (!command || !['list', 'show', 'accept', 'reject', 'recover'].includes(command)) throw new Usage(command ? `unknown command ${command}` : 'a command is required');
    if (command === 'recover') {
      if (!recover(recordsRoot(io.env), io)) io.out('nothing to recover: no accept was interrupted');
      return 0;
    }
    own = store ? undefined : await openSubmissionStore(gatewaySettings(io.env));
    const db = store ?? own!;
    if (command === 'list') {
      const at = rest.indexOf('--status');
      const status = at === -1 ? undefined : rest[at + 1];
      if (status !== undefined && !['pending', 'accepted', 'rejected'].includes(status)) throw new Usage('--status takes pending, accepted or rejected');
      for (const s of await db.list(status as ReceiptState | undefined)) io.out(summaryLine(s));
      return 0;
    }
    const s = await find(db, rest[0]);
    if (command === 'show') {
      io.out(JSON.stringify({ status: s.status, reason: s.reason ?? null, archive_path: s.archivePath ?? null, decided_at: s.decidedAt ?? null, receipt: s.receipt, submission: JSON.parse(s.submissionText) as unknown }, null, 2));
      return 0;
    }
    if (command === 'accept') {
      await accept(db, s, io);
      return 0;
    }
    const at = rest.indexOf('--reason');
    const reason = at === -1 ? undefined : rest[at + 1]?.trim();
    if (!reason) throw new Usage('reject needs --reason TEXT');
    if (s.status !== 'pending') throw new Refusal(`${s.receiptId} is already ${s.status}`);
    await db.decide(s.receiptId, { status: 'rejected', reason, decidedAt: io.now().toISOString() });
    io.out(`rejected ${s.receiptId}: ${reason}`);
    return 0;
  } catch (err) {
    if (err instanceof Usage) {
      io.err(`intake: ${err.message}\n${USAGE}`);
      return 2;
    }
    if (err instanceof Refusal) {
      io.err(`intake: ${err.message}`);
      return 1;
    }
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') {
      io.err(
        `intake: no space left on device (ENOSPC) while writing ${(err as NodeJS.ErrnoException).path ?? 'the archive'}. Nothing was marked accepted; ` +
          `an accept that had begun writing is finished by the next accept or \`npm run intake -- recover\` (until then the archive refuses to load). Free some space and run it again.`,
      );
      return 2;
    }
    io.err(`intake: ${(err as Error).message}`);
    return 2;
  } finally {
    await own?.close();
  }
}
