/**
 * The record lifecycle end to end (issue 14, DECISIONS 16 and 19), with the bundled builder as a child process:
 * keygen → echo (with a verification claim) → submit → intake accept → build → readback; then a correction by the
 * same key → submit → accept → build: the old record's page says "Corrected by" and links the correction, the
 * correction's page says "Corrects", the old index entry is superseded with superseded_by, the receipt status
 * carries the archive id, and readback of both submissions succeeds. A correction by another key is rejected, and the
 * receipt status says why. "Build" is the build's own parts over the
 * temporary archive (tests/gateway/site.ts): validation, the public index, raw records and the record pages.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIntake } from '../../src/intake/cli.ts';
import { bundledBuilder } from '../builder/helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startGateway, type RunningGateway } from './helpers.ts';
import { serveSite, type TestSite } from './site.ts';

const builder = bundledBuilder({ siteUrl: 'http://127.0.0.1:9', gatewayUrl: 'http://127.0.0.1:9' });

const AGENT = ['--agent-name', 'walk-model', '--agent-provider', 'walk-lab'];
const ECHO = [
  'echo', '--key-dir', 'keys', ...AGENT,
  '--context-depth', 'C2_registry_aware', '--assessment-state', 'structural_understanding',
  '--summary', 'An archive of agent statements; non-authoritative.', '--echo', 'I read the homepage and the registry.',
  '--discovery-source', 'search_engine', '--agency-level', 'A4_independent_search_or_browsing_discovery', '--first-entry', 'https://example.org/',
  '--first-entry-type', 'homepage', '--human-supplied-link', 'no', '--other-agent-recommended', 'no', '--independent-followup', 'yes', '--confidence', 'medium',
  '--digital-profile', 'integrity_checked', '--relationship', 'archive hash equals registry entry', '--coverage-scope', 'minimal_single_check',
  '--covered', 'release v1.0 archive', '--limitation', 'one artifact only', '--claim-not-made', 'no claim about other releases', '--corrections-checked', 'no',
  '--out', 'echo.json',
];

describe('record lifecycle: echo, correction by the same key, supersession, readback', () => {
  let gw: RunningGateway;
  let site: TestSite;
  let recordsDir: string;
  beforeAll(async () => {
    gw = await startGateway();
    recordsDir = tempDir('lifecycle-records-');
    cpSync('records', recordsDir, { recursive: true });
    site = await serveSite(recordsDir);
  });
  afterAll(async () => {
    await gw.stop();
    await site.close();
  });

  const accept = async (receiptId: string) => {
    const err: string[] = [];
    const code = await runIntake(['accept', receiptId], { out: () => {}, err: (l) => err.push(l), env: { RECORDS_DIR: recordsDir }, now: () => new Date('2026-11-22T12:00:00Z') }, gw.store);
    expect(code, err.join('\n')).toBe(0);
  };
  const index = () => fetch(`${site.url}/api/index.json`).then((r) => r.json() as Promise<{ records: Array<Record<string, any>> }>);
  const page = (id: string) => fetch(`${site.url}/records/${id}/`).then((r) => r.text());
  const status = (receiptId: string) => fetch(`${gw.url}/record-chain/receipts/${receiptId}`).then((r) => r.json() as Promise<Record<string, any>>);

  it('walks the whole lifecycle', async () => {
    const dir = builder.tempDir();
    const run = (args: string[]) => builder.run(args, { cwd: dir });
    expect((await run(['keygen', '--key-dir', 'keys'])).code).toBe(0);
    const built = await run(ECHO);
    expect(built.code, built.stderr).toBe(0);
    const sent = await run(['submit', '--file', 'echo.json', '--gateway', gw.url, '--receipt-out', 'echo-receipt.json']);
    expect(sent.code, sent.stderr + sent.stdout).toBe(0);
    const echoReceipt = JSON.parse(readFileSync(join(dir, 'echo-receipt.json'), 'utf8'));
    await accept(echoReceipt.receipt_id);

    const first = (await index()).records.find((e) => e.submission_sha256 === echoReceipt.submission_sha256)!;
    expect(first).toMatchObject({ record_type: 'echo', archive_status: 'needs_human_review', superseded_by: null });
    expect(await status(echoReceipt.receipt_id)).toMatchObject({ status: 'accepted', archive_id: first.id });
    const echoPage = await page(first.id);
    expect(echoPage).toContain("the submitter's claim, not the archive's");
    expect(echoPage).toContain('archive hash equals registry entry');
    const indexUrl = `${site.url}/api/index.json`;
    expect((await run(['readback', '--file', 'echo.json', '--index', indexUrl])).code).toBe(0);

    // The correction, signed by the same key (the same --key-dir).
    const corrected = await run([
      'correction', '--key-dir', 'keys', ...AGENT, '--target-sha256', echoReceipt.submission_sha256,
      '--what', 'the echo text', '--corrected-statement', 'I read the homepage, the registry and the index.', '--reason', 'I left out the index.',
      '--out', 'correction.json',
    ]);
    expect(corrected.code, corrected.stderr).toBe(0);
    const sentCorrection = await run(['submit', '--file', 'correction.json', '--gateway', gw.url, '--receipt-out', 'correction-receipt.json']);
    expect(sentCorrection.code, sentCorrection.stderr + sentCorrection.stdout).toBe(0);
    const correctionReceipt = JSON.parse(readFileSync(join(dir, 'correction-receipt.json'), 'utf8'));
    await accept(correctionReceipt.receipt_id);

    const entries = (await index()).records;
    const old = entries.find((e) => e.submission_sha256 === echoReceipt.submission_sha256)!;
    const fix = entries.find((e) => e.submission_sha256 === correctionReceipt.submission_sha256)!;
    expect(old).toMatchObject({ id: first.id, archive_status: 'superseded', superseded_by: [fix.id] });
    expect(fix).toMatchObject({ record_type: 'correction', superseded_by: null });
    expect(await status(correctionReceipt.receipt_id)).toMatchObject({ status: 'accepted', archive_id: fix.id });

    const oldPage = await page(old.id);
    expect(oldPage).toContain(`Corrected by <a href="/records/${fix.id}/"><code>${fix.id}</code></a>`);
    expect(oldPage).toContain('Superseded');
    expect(await page(fix.id)).toContain(`Corrects <a href="/records/${old.id}/"><code>${old.id}</code></a>`);

    const readOld = await run(['readback', '--file', 'echo.json', '--index', indexUrl]);
    expect(readOld.code, readOld.stderr).toBe(0);
    expect(readOld.stderr).toContain(`superseded by ${fix.id}`);
    const readFix = await run(['readback', '--file', 'correction.json', '--index', indexUrl]);
    expect(readFix.code, readFix.stderr).toBe(0);

    // A correction of the correction by another key: rejected at accept, and the receipt status says why.
    expect((await run(['keygen', '--key-dir', 'other-keys'])).code).toBe(0);
    const foreign = await run([
      'correction', '--key-dir', 'other-keys', ...AGENT, '--target-id', fix.id, '--effect', 'withdraws_record', '--what', 'all of it', '--reason', 'I disagree.',
      '--out', 'foreign.json',
    ]);
    expect(foreign.code, foreign.stderr).toBe(0);
    expect((await run(['submit', '--file', 'foreign.json', '--gateway', gw.url, '--receipt-out', 'foreign-receipt.json'])).code).toBe(0);
    const foreignReceipt = JSON.parse(readFileSync(join(dir, 'foreign-receipt.json'), 'utf8'));
    const err: string[] = [];
    const refused = await runIntake(['accept', foreignReceipt.receipt_id], { out: () => {}, err: (l) => err.push(l), env: { RECORDS_DIR: recordsDir }, now: () => new Date() }, gw.store);
    expect(refused).toBe(1);
    expect(await status(foreignReceipt.receipt_id)).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/signed by another key/) });
    expect((await index()).records.find((e) => e.id === fix.id)).toMatchObject({ archive_status: 'needs_human_review', withdrawn: false });
  }, 60_000);
});
