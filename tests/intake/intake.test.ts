/** Intake review: accept writes a valid Echo v3 record file (every record type), reject records the reason. */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { forbiddenWordsIn } from '../../src/core/rules/cross/extensions-keys.ts';
import { buildReceipt, RECORD_TYPES, serializeSubmission, signReceipt, type RecordType } from '../../src/core/record-chain/index.ts';
import { loadOrCreateGatewayKey } from '../../src/gateway/keys.ts';
import { SqliteSubmissionStore } from '../../src/gateway/store.ts';
import { runIntake } from '../../src/intake/cli.ts';
import { loadArchive } from '../../src/core/archive/load-archive.ts';
import { nextRecordPath, validateAsArchiveFile } from '../../src/intake/archive-writer.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { keysOf } from '../helpers/records.ts';
import type { Submission } from '../../src/core/record-chain/index.ts';

const dirs: string[] = [];
const temp = (prefix: string) => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const NOW = new Date('2026-11-22T12:00:00Z');

async function setup() {
  const dataDir = temp('intake-data-');
  const recordsDir = temp('intake-records-');
  cpSync('records', recordsDir, { recursive: true });
  const keys = loadOrCreateGatewayKey(dataDir);
  const store = new SqliteSubmissionStore(dataDir);
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: { RECORDS_DIR: recordsDir, GATEWAY_DATA_DIR: dataDir }, now: () => NOW };
  const intake = async (type: RecordType, sub: Submission = submission(type, record(type))) => {
    const text = serializeSubmission(sub);
    const receipt = signReceipt(
      buildReceipt({ submissionSha256: sub.proof.content_hash_sha256, recordType: type, indexUrl: 'http://127.0.0.1:1/api/index.json', gatewayKeyId: keys.keyId }),
      keys.privateKey,
    );
    await store.putIfAbsent({ receiptId: receipt.receipt_id, submissionSha256: receipt.submission_sha256, recordType: type, receivedAt: receipt.received_at, receipt, submissionText: text });
    return receipt;
  };
  return { store, recordsDir, io, out, err, intake, run: (argv: string[]) => runIntake(argv, io, store) };
}

describe('intake accept', () => {
  it('writes every record type as a valid Echo v3 record with the next conventional name', async () => {
    const t = await setup();
    const nameAt = (i: number) => `echo-2026-11-22-${String(16 + i).padStart(6, '0')}`;
    // A guardian retirement and a classification update name an archived record by id and its file's SHA-256
    // (docs/guardians.md): they are taken in once the record they name is archived, below.
    const named = (type: RecordType) => type === 'guardian_retirement' || type === 'classification_update';
    const receipts: Awaited<ReturnType<typeof t.intake>>[] = [];
    for (const type of RECORD_TYPES.filter((type) => !named(type))) {
      // The correction corrects the echo accepted before it (same key: the helpers sign everything with one key).
      const sub: Submission | undefined = type === 'correction' ? submission(type, record(type, { target: { submission_sha256: receipts[0]!.submission_sha256 } })) : undefined;
      receipts.push(await t.intake(type, sub));
    }
    expect(await t.run(['list', '--status', 'pending'])).toBe(0);
    expect(t.out).toHaveLength(RECORD_TYPES.length - 2);

    const link = (type: RecordType) => {
      const id = nameAt(RECORD_TYPES.indexOf(type));
      return { id, sha256: sha256Hex(readFileSync(join(t.recordsDir, '2026', `${id}.json`))) };
    };
    for (const [i, type] of RECORD_TYPES.entries()) {
      if (type === 'guardian_retirement') {
        const application = link('guardian_application');
        receipts.splice(i, 0, await t.intake(type, submission(type, record(type, { target_guardian_application_record_id: application.id, target_guardian_application_record_sha256: application.sha256 }))));
      } else if (type === 'classification_update') {
        const target = link('verification');
        const change = { target_record_id: target.id, target_record_sha256: target.sha256, previous_classification: { independence_class: 'self_reported' } };
        const base = record(type).classification_update_content as Record<string, unknown>;
        receipts.splice(i, 0, await t.intake(type, submission(type, record(type, { classification_update_content: { ...base, ...change } }))));
      }
      const receipt = receipts[i]!;
      const code = await t.run(['accept', i % 2 ? receipt.submission_sha256 : receipt.receipt_id]);
      expect(code, t.err.join('\n')).toBe(0);
      const name = nameAt(i);
      const file = join(t.recordsDir, '2026', `${name}.json`);
      expect(existsSync(file)).toBe(true);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      const chain = written.extensions.record_chain;
      expect(chain).toMatchObject({ submission_sha256: receipt.submission_sha256, record_type: RECORD_TYPES[i], receipt_id: receipt.receipt_id });
      expect(chain.proof.content_hash_sha256).toBe(receipt.submission_sha256);
      expect(sha256Hex(chain.record_jcs)).toBe(receipt.submission_sha256);
      expect(keysOf(written.extensions).flatMap(forbiddenWordsIn)).toEqual([]);
      const stored = await t.store.get(receipt.receipt_id);
      expect(stored).toMatchObject({ status: 'accepted', archivePath: `2026/${name}.json` });
    }
    const report = await validateArchive(t.recordsDir);
    expect(report.summary.invalid, JSON.stringify(report.files.filter((f) => !f.valid).map((f) => f.diagnostics))).toBe(0);
    // The accepted records have no warning at all: each carries the origin_classification it derived (DECISIONS 22).
    const accepted = report.files.filter((f) => /^2026\/echo-2026-11-22-/.test(f.path));
    expect(accepted).toHaveLength(RECORD_TYPES.length);
    expect(accepted.flatMap((f) => f.diagnostics)).toEqual([]);
    // The project's sample records copied beside them predate origin_classification: they warn of that, and of nothing else.
    expect(new Set(report.files.flatMap((f) => f.diagnostics.map((d) => `${d.severity} ${d.rule}`)))).toEqual(new Set(['warning cross/origin-classification-missing']));

    // Already decided: refused, nothing written.
    const before = readdirSync(join(t.recordsDir, '2026')).length;
    expect(await t.run(['accept', receipts[0]!.receipt_id])).toBe(1);
    expect(await t.run(['reject', receipts[0]!.receipt_id, '--reason', 'x'])).toBe(1);
    expect(readdirSync(join(t.recordsDir, '2026')).length).toBe(before);
    await t.store.close();
  });

  it('a record already archived (accept interrupted before the status was stored) is not written twice', async () => {
    const t = await setup();
    const receipt = await t.intake('propagation');
    expect(await t.run(['accept', receipt.receipt_id])).toBe(0);
    // Simulate the crash: put the status back to pending in a fresh store row.
    await t.store.close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(t.io.env.GATEWAY_DATA_DIR, 'submissions.sqlite'));
    db.prepare(`UPDATE submissions SET status = 'pending', archive_path = NULL`).run();
    db.close();
    const store = new SqliteSubmissionStore(t.io.env.GATEWAY_DATA_DIR);
    expect(await runIntake(['accept', receipt.receipt_id], t.io, store)).toBe(0);
    expect(t.out.at(-1)).toMatch(/already archived/);
    expect(readdirSync(join(t.recordsDir, '2026')).filter((n) => n.startsWith('echo-2026-11-22'))).toHaveLength(1);
    await store.close();
  });

  it('reject records the reason; show and usage errors', async () => {
    const t = await setup();
    const receipt = await t.intake('echo');
    expect(await t.run(['reject', receipt.receipt_id])).toBe(2);
    expect(await t.run(['reject', receipt.receipt_id, '--reason', 'promotional'])).toBe(0);
    expect(await t.store.get(receipt.receipt_id)).toMatchObject({ status: 'rejected', reason: 'promotional' });
    expect(await t.run(['show', receipt.receipt_id])).toBe(0);
    expect(JSON.parse(t.out.at(-1)!)).toMatchObject({ status: 'rejected', reason: 'promotional', receipt: { receipt_id: receipt.receipt_id } });
    expect(await t.run(['show', 'rcpt_' + '9'.repeat(32)])).toBe(1);
    expect(await t.run(['frobnicate'])).toBe(2);
    expect(await t.run([])).toBe(2);
    // --help is an answer, not a usage error: every command, where the store is, what the exit codes mean.
    for (const help of ['--help', '-h', 'help']) {
      expect(await t.run([help])).toBe(0);
      expect(t.out.at(-1)).toMatch(/^Review what the intake gateway took in[\s\S]*recover[\s\S]*Exit status/);
    }
    await t.store.close();
  });

  it('refuses to write a file the archive core finds invalid', async () => {
    const t = await setup();
    const archive = await loadArchive(t.recordsDir);
    const path = nextRecordPath(archive, NOW);
    expect(path).toBe('2026/echo-2026-11-22-000016.json');
    const verdict = validateAsArchiveFile(archive, path, JSON.stringify({ record_kind: 'echo_v3', extensions: { authority_note: 1 } }));
    expect(verdict.valid).toBe(false);
    expect(verdict.diagnostics.map((d) => d.rule)).toContain('cross/extensions-keys');
    await t.store.close();
  });
});
