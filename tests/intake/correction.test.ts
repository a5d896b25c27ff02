/**
 * Accepting corrections (DECISIONS 16, 10): the same key supersedes or withdraws the target in the same accept, both
 * files or neither (crashes simulated at each step of the commit, and once by killing a real process); another key
 * is rejected with the reason, which the receipt status carries.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveRootError, loadArchive } from '../../src/core/archive/load-archive.ts';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { buildReceipt, buildSubmission, serializeSubmission, signReceipt, type JsonObject, type Submission } from '../../src/core/record-chain/index.ts';
import { loadOrCreateGatewayKey } from '../../src/gateway/keys.ts';
import { SqliteSubmissionStore } from '../../src/gateway/store.ts';
import { writeArchiveRecord } from '../../src/intake/archive-writer.ts';
import { runIntake } from '../../src/intake/cli.ts';
import { composeAccept, planCorrection } from '../../src/intake/correction.ts';
import { commitWrites, INTAKE_JOURNAL_NAME } from '../../src/intake/journal.ts';
import { CLIENT, record, submission } from '../record-chain/helpers.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const temp = tempDir;

const NOW = new Date('2026-11-22T12:00:00Z');
const ECHO_ID = 'echo-2026-11-22-000016';
const CORRECTION_ID = 'echo-2026-11-22-000017';
const ECHO_PATH = `2026/${ECHO_ID}.json`;
const CORRECTION_PATH = `2026/${CORRECTION_ID}.json`;

async function setup() {
  const dataDir = temp('correction-data-');
  const recordsDir = temp('correction-records-');
  cpSync(resolve(REPO_ROOT, 'records'), recordsDir, { recursive: true });
  const keys = loadOrCreateGatewayKey(dataDir);
  const store = new SqliteSubmissionStore(dataDir);
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: { RECORDS_DIR: recordsDir, GATEWAY_DATA_DIR: dataDir }, now: () => NOW };
  const intake = async (sub: Submission) => {
    const receipt = signReceipt(
      buildReceipt({ submissionSha256: sub.proof.content_hash_sha256, recordType: sub.record_type, indexUrl: 'http://127.0.0.1:1/api/index.json', gatewayKeyId: keys.keyId }),
      keys.privateKey,
    );
    await store.putIfAbsent({ receiptId: receipt.receipt_id, submissionSha256: receipt.submission_sha256, recordType: sub.record_type, receivedAt: receipt.received_at, receipt, submissionText: serializeSubmission(sub) });
    return receipt;
  };
  const read = (path: string) => JSON.parse(readFileSync(join(recordsDir, path), 'utf8')) as JsonObject;
  const raw = (path: string) => readFileSync(join(recordsDir, path));
  return { store, recordsDir, dataDir, io, out, err, intake, read, raw, run: (argv: string[]) => runIntake(argv, io, store) };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** An echo accepted into the archive (as ECHO_PATH), signed by the helpers' key. */
async function acceptedEcho(t: Setup) {
  const receipt = await t.intake(submission('echo'));
  expect(await t.run(['accept', receipt.receipt_id]), t.err.join('\n')).toBe(0);
  expect(existsSync(join(t.recordsDir, ECHO_PATH))).toBe(true);
  return receipt;
}

function correction(target: JsonObject, changes: JsonObject = {}, keys?: { privateKey: import('node:crypto').KeyObject; publicKey: import('node:crypto').KeyObject }): Submission {
  const content = record('correction', { target, ...changes });
  return keys ? buildSubmission('correction', content, keys, CLIENT) : submission('correction', content);
}

describe('accepting a correction signed by the same key', () => {
  it('supersedes the corrected record in the same accept, naming the correction, and links it from the correction', async () => {
    const t = await setup();
    const echo = await acceptedEcho(t);
    const receipt = await t.intake(correction({ submission_sha256: echo.submission_sha256 }));
    expect(await t.run(['accept', receipt.receipt_id]), t.err.join('\n')).toBe(0);
    expect(t.out.at(-1)).toContain(`superseded ${t.recordsDir}/${ECHO_PATH}`);

    const target = t.read(ECHO_PATH);
    expect(target.archive_status).toBe('superseded');
    expect(target.superseded_reason).toContain(CORRECTION_ID);
    expect(target.superseded_reason).toContain(receipt.submission_sha256);
    expect(target.verification_status).toBeUndefined();
    const chain = (t.read(CORRECTION_PATH).extensions as JsonObject).record_chain as JsonObject;
    expect(chain).toMatchObject({ record_type: 'correction', corrects: { record_id: ECHO_ID, submission_sha256: echo.submission_sha256, effect: 'corrects_statement' } });
    expect(await t.store.get(receipt.receipt_id)).toMatchObject({ status: 'accepted', archivePath: CORRECTION_PATH });

    const report = await validateArchive(t.recordsDir);
    expect(report.summary.invalid, JSON.stringify(report.files.filter((f) => !f.valid))).toBe(0);
    expect(existsSync(join(t.recordsDir, INTAKE_JOURNAL_NAME))).toBe(false);
    await t.store.close();
  });

  it('a withdrawal withdraws the record (verification_status invalidated, DECISIONS 10) and supersedes it', async () => {
    const t = await setup();
    await acceptedEcho(t);
    const receipt = await t.intake(correction({ record_id: ECHO_ID }, { effect: 'withdraws_record', corrected_statement: undefined }));
    expect(await t.run(['accept', receipt.receipt_id]), t.err.join('\n')).toBe(0);
    const target = t.read(ECHO_PATH);
    expect(target).toMatchObject({ archive_status: 'superseded', verification_status: 'invalidated' });
    expect(target.superseded_reason).toMatch(/withdraws this record/);
    await t.store.close();
  });

  it('a correction by another key is rejected with a clear reason, nothing is written, and the receipt says why', async () => {
    const t = await setup();
    const echo = await acceptedEcho(t);
    const before = t.raw(ECHO_PATH);
    const receipt = await t.intake(correction({ submission_sha256: echo.submission_sha256 }, {}, generateEd25519KeyPair()));
    expect(await t.run(['accept', receipt.receipt_id])).toBe(1);
    expect(t.err.at(-1)).toMatch(/signed by another key .* only the key that signed a record can correct it/);
    expect(t.raw(ECHO_PATH).equals(before)).toBe(true);
    expect(existsSync(join(t.recordsDir, CORRECTION_PATH))).toBe(false);
    const stored = await t.store.get(receipt.receipt_id);
    expect(stored).toMatchObject({ status: 'rejected' });
    expect(stored!.reason).toMatch(/another key/);
    await t.store.close();
  });

  it('a correction of a record not (yet) archived is refused and stays pending; one of a superseded record is rejected', async () => {
    const t = await setup();
    const early = await t.intake(correction({ record_id: ECHO_ID }));
    expect(await t.run(['accept', early.receipt_id])).toBe(1);
    expect(t.err.at(-1)).toMatch(/is not in the archive: if it is still pending in intake, accept it first/);
    expect(await t.store.get(early.receipt_id)).toMatchObject({ status: 'pending' });

    await acceptedEcho(t);
    expect(await t.run(['accept', early.receipt_id]), t.err.join('\n')).toBe(0);
    const again = await t.intake(correction({ record_id: ECHO_ID }, { reason: 'Second thoughts.' }));
    expect(await t.run(['accept', again.receipt_id])).toBe(1);
    expect(t.err.at(-1)).toMatch(/already superseded .* correct the newest record instead/);
    await t.store.close();
  });

  it('a record without a record-chain signature that holds cannot be corrected through intake', async () => {
    const t = await setup();
    const archive = await loadArchive(t.recordsDir);
    const contributed = archive.files.find((f) => f.record)!;
    const sub = correction({ record_id: contributed.id });
    expect(() => planCorrection(archive, sub, CORRECTION_PATH, sub.proof.content_hash_sha256)).toThrow(/no record-chain signature that holds/);
    await t.store.close();
  });
});

describe('both files or neither', () => {
  /** An archive with the accepted echo, and the correction's planned commit run with `hooks`. */
  async function interrupted(hooks: Parameters<typeof writeArchiveRecord>[4]) {
    const t = await setup();
    const echo = await acceptedEcho(t);
    const before = t.raw(ECHO_PATH);
    const sub = correction({ submission_sha256: echo.submission_sha256 });
    const compose = composeAccept(sub, { receiptId: 'rcpt_' + '0'.repeat(32), receivedAt: NOW.toISOString(), submissionSha256: sub.proof.content_hash_sha256 });
    await expect(writeArchiveRecord(t.recordsDir, sub.proof.content_hash_sha256, NOW, compose, hooks)).rejects.toThrow('crash');
    return { t, before };
  }
  const crash = () => {
    throw new Error('crash');
  };

  it('a crash after the journal, before any file: the archive refuses to load; recover writes both', async () => {
    const { t, before } = await interrupted({ afterJournal: crash });
    expect(t.raw(ECHO_PATH).equals(before)).toBe(true);
    expect(existsSync(join(t.recordsDir, CORRECTION_PATH))).toBe(false);
    await expect(loadArchive(t.recordsDir)).rejects.toThrow(ArchiveRootError);
    await expect(loadArchive(t.recordsDir)).rejects.toThrow(/npm run intake -- recover/);
    expect(await t.run(['recover'])).toBe(0);
    expect(t.out.at(-1)).toMatch(/recovered an interrupted accept/);
    expect(t.read(ECHO_PATH).archive_status).toBe('superseded');
    expect(existsSync(join(t.recordsDir, CORRECTION_PATH))).toBe(true);
    expect((await validateArchive(t.recordsDir)).summary.invalid).toBe(0);
    expect(await t.run(['recover'])).toBe(0);
    expect(t.out.at(-1)).toMatch(/nothing to recover/);
    await t.store.close();
  });

  it('a crash between the two writes: the next accept finishes the first one before anything else', async () => {
    const { t } = await interrupted({ afterWrite: (i) => i === 0 && crash() });
    // Half written: the correction is there, the target is not yet superseded, and nobody may read the archive.
    expect(existsSync(join(t.recordsDir, CORRECTION_PATH))).toBe(true);
    expect(t.read(ECHO_PATH).archive_status).toBe('needs_human_review');
    await expect(validateArchive(t.recordsDir)).rejects.toThrow(/interrupted/);
    const next = await t.intake(submission('propagation'));
    expect(await t.run(['accept', next.receipt_id]), t.err.join('\n')).toBe(0);
    expect(t.out.some((l) => /recovered an interrupted accept: .*echo-2026-11-22-000016\.json/.test(l))).toBe(true);
    expect(t.read(ECHO_PATH).archive_status).toBe('superseded');
    expect(existsSync(join(t.recordsDir, '2026/echo-2026-11-22-000018.json'))).toBe(true);
    expect((await validateArchive(t.recordsDir)).summary.invalid).toBe(0);
    await t.store.close();
  });

  it('a crash while the journal is written leaves the archive as it was, and recover removes the leftover', async () => {
    const t = await setup();
    await acceptedEcho(t);
    const before = t.raw(ECHO_PATH);
    // What a process that died while writing its journal leaves: a hidden temporary file, no journal.
    const leftover = join(t.recordsDir, '.intake-999999999-1-x.tmp');
    writeFileSync(leftover, '{"schema":"echo-archive.intake-journal.v1","wri');
    expect((await validateArchive(t.recordsDir)).summary.invalid).toBe(0);
    expect(await t.run(['recover'])).toBe(0);
    expect(t.out.at(-1)).toMatch(/nothing to recover/);
    expect(existsSync(leftover)).toBe(false);
    expect(t.raw(ECHO_PATH).equals(before)).toBe(true);
    expect(existsSync(join(t.recordsDir, CORRECTION_PATH))).toBe(false);
    await t.store.close();
  });

  it('the journal is a lock: a second commit while one is in progress writes nothing', async () => {
    const root = temp('correction-lock-');
    writeFileSync(join(root, INTAKE_JOURNAL_NAME), JSON.stringify({ schema: 'echo-archive.intake-journal.v1', writes: [] }));
    expect(() => commitWrites(root, [{ path: '2026/a.json', text: '{}\n', before: null }])).toThrow(/another accept is running, or one was interrupted/);
    expect(existsSync(join(root, '2026/a.json'))).toBe(false);
    // A file that changed since it was read is never overwritten.
    rmSync(join(root, INTAKE_JOURNAL_NAME));
    writeFileSync(join(root, 'b.json'), '{"x":1}\n');
    expect(() => commitWrites(root, [{ path: 'b.json', text: '{}\n', before: 'f'.repeat(64) }])).toThrow(/changed while the accept was prepared/);
    expect(readFileSync(join(root, 'b.json'), 'utf8')).toBe('{"x":1}\n');
    expect(readdirSync(root)).toEqual(['b.json']);
  });

  it('a process killed (SIGKILL) between the two writes: recover completes the accept', async () => {
    const t = await setup();
    const echo = await acceptedEcho(t);
    const sub = correction({ submission_sha256: echo.submission_sha256 });
    const subFile = join(t.dataDir, 'correction.json');
    writeFileSync(subFile, serializeSubmission(sub));
    const child = spawnSync(resolve(REPO_ROOT, 'node_modules/.bin/node'), [resolve(REPO_ROOT, 'tests/intake/kill-mid-commit.ts'), t.recordsDir, subFile], { encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    expect(existsSync(join(t.recordsDir, INTAKE_JOURNAL_NAME))).toBe(true);
    expect(existsSync(join(t.recordsDir, CORRECTION_PATH))).toBe(true);
    expect(t.read(ECHO_PATH).archive_status).toBe('needs_human_review');
    expect(await t.run(['recover'])).toBe(0);
    expect(t.read(ECHO_PATH).archive_status).toBe('superseded');
    expect((await validateArchive(t.recordsDir)).summary.invalid).toBe(0);
    await t.store.close();
  });
});
