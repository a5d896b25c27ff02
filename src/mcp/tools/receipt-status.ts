/**
 * receipt_status: the gateway's receipt route (GET /record-chain/receipts/{id} or /record-chain/submissions/{sha}):
 * the review state of a submission, and its receipt verified by the builder's receipt command against the gateway's
 * published keys.
 */
import { receipt as receiptCommand } from '../../builder/commands/receipt.ts';
import { request } from '../../builder/net.ts';
import { GATEWAY_KEYS_PATH, RECEIPTS_PATH, SUBMISSION_SHA256_PATTERN, SUBMISSIONS_PATH } from '../../core/record-chain/index.ts';
import { outcomeOf, runCommand, withoutTempPaths } from '../run-command.ts';
import { render, S, stringArg, ToolInputError, type ArchiveTool } from '../tool.ts';

const RECEIPT_ID = /^rcpt_[0-9a-f]{32}$/;

export const receiptStatus: ArchiveTool = {
  name: 'receipt_status',
  title: 'Follow a submission',
  description:
    'Ask the intake gateway where a submission stands (by receipt_id or submission_sha256): pending, accepted (with the archive id it was accepted as), or rejected (with the reviewers\' reason), and verify the receipt\'s signature against the gateway\'s published keys (the builder\'s receipt command). Accepted means accepted for the archive; final inclusion is proven by verify_inclusion once the archive is published.',
  readOnly: true,
  inputSchema: S.obj({
    receipt_id: S.str('the receipt id (rcpt_ and 32 hex digits)', { pattern: RECEIPT_ID.source }),
    submission_sha256: { ...S.hex64, description: 'the submission_sha256' },
  }),
  outputSchema: S.obj(
    {
      found: S.bool('the gateway took this submission in'),
      status: { type: ['string', 'null'], description: 'pending, accepted or rejected (null: not found)' },
      archive_id: S.nstr('the archive id it was accepted as'),
      reason: S.nstr('the reviewers\' reason, when rejected'),
      decided_at: S.nstr('when it was decided'),
      receipt: { type: ['object', 'null'], description: 'the signed receipt as issued' },
      receipt_verified: S.bool('the receipt\'s signature verifies with the gateway\'s published keys'),
      outcome: S.outcome,
      report: S.report,
    },
    ['found', 'status', 'archive_id', 'reason', 'decided_at', 'receipt', 'receipt_verified', 'outcome', 'report'],
  ),
  async run(args, ctx) {
    const id = stringArg(args, 'receipt_id');
    const sha = stringArg(args, 'submission_sha256');
    if ((id === undefined) === (sha === undefined)) throw new ToolInputError('give exactly one of "receipt_id" or "submission_sha256"');
    if (id !== undefined && !RECEIPT_ID.test(id)) throw new ToolInputError('"receipt_id" looks like rcpt_ and 32 hex digits');
    if (sha !== undefined && !SUBMISSION_SHA256_PATTERN.test(sha)) throw new ToolInputError('"submission_sha256" is 64 lowercase hex digits');
    const url = id !== undefined ? `${ctx.gatewayUrl}${RECEIPTS_PATH}/${id}` : `${ctx.gatewayUrl}${SUBMISSIONS_PATH}/${sha}`;
    const res = await request(url, { method: 'GET', headers: { accept: 'application/json' }, timeoutSeconds: ctx.timeoutSeconds });
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.from(res.bytes).toString('utf8')) as Record<string, unknown>;
    } catch {
      /* not JSON: reported below */
    }
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    if (res.status !== 200) {
      const error = (body.error ?? {}) as Record<string, unknown>;
      const words = `gateway: GET ${url} answered HTTP ${res.status}${error.code ? ` ${String(error.code)}` : ''}: ${String(error.message ?? 'no answer in JSON')}`;
      const structured = { found: false, status: null, archive_id: null, reason: null, decided_at: null, receipt: null, receipt_verified: false, outcome: res.status === 404 ? 'no' : 'error', report: words + '\n' };
      return { structured, text: render(words, structured), isError: res.status !== 404 };
    }
    const receipt = body.receipt !== null && typeof body.receipt === 'object' ? (body.receipt as Record<string, unknown>) : null;
    const check = receipt
      ? await runCommand(receiptCommand, (w) => ({ file: w.file('receipt.json', JSON.stringify(receipt, null, 2) + '\n'), keys: `${ctx.gatewayUrl}${GATEWAY_KEYS_PATH}`, timeout: String(ctx.timeoutSeconds) }))
      : { exit: 1, stdout: '', stderr: 'the gateway answered without a receipt\n' };
    const status = str(body.status);
    const report = `status: ${status ?? 'unknown'}${str(body.archive_id) ? ` (archive id ${str(body.archive_id)})` : ''}\n${withoutTempPaths(check.stdout + check.stderr)}`;
    const structured = {
      found: true,
      status,
      archive_id: str(body.archive_id),
      reason: str(body.reason),
      decided_at: str(body.decided_at),
      receipt,
      receipt_verified: check.exit === 0,
      outcome: outcomeOf(check.exit),
      report,
    };
    return { structured, text: render(report, structured), isError: check.exit === 2 };
  },
};
