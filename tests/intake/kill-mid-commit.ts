/**
 * A child process for tests/intake/correction.test.ts: accepts the correction in argv[3] (a submission file) into
 * the archive at argv[2] as the next record, and kills itself with SIGKILL right after the first of its two files
 * is written: the crash between the two writes, in a real process.
 */
import { readFileSync } from 'node:fs';
import { validateSubmissionText } from '../../src/core/record-chain/index.ts';
import { writeArchiveRecord } from '../../src/intake/archive-writer.ts';
import { composeAccept } from '../../src/intake/correction.ts';

const [root, submissionFile] = process.argv.slice(2) as [string, string];
const { submission, submissionSha256 } = validateSubmissionText(readFileSync(submissionFile));
if (!submission || !submissionSha256) throw new Error('the submission is not valid');
await writeArchiveRecord(
  root,
  submissionSha256,
  new Date('2026-11-22T12:00:00Z'),
  composeAccept(submission, { receiptId: 'rcpt_' + '1'.repeat(32), receivedAt: '2026-11-22T12:00:00.000Z', submissionSha256 }),
  { afterWrite: () => process.kill(process.pid, 'SIGKILL') },
);
