/**
 * `intake accept` under faults (issue 28, items 2 and 3): accepting a correction writes the correction, the record it
 * supersedes and the journal (src/intake/journal.ts), then marks the receipt accepted. The command's code path
 * (runIntake, tests/faults/intake-driver.ts: a fixed clock) in a child process:
 *   - SIGKILLed at seeded random file-changing calls, writes torn at the kill: afterwards the archive loads whole or
 *     refuses to load naming the interrupted accept (never half of it); accepting again finishes it; the archive is
 *     then byte-identical to a clean accept's, the receipt accepted with that path, no temporary file left;
 *   - on a tmpfs that fills mid-way: it fails naming ENOSPC in plain words, nothing is marked accepted, no part-written
 *     file is left; once space is freed, accepting again completes, byte-identical.
 * FAULT_TRIALS sets the trials (default 8; .ci/run: 50), FAULT_SEED replays a run.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveRootError, loadArchive } from '../../src/core/archive/load-archive.ts';
import { buildReceipt, serializeSubmission, signReceipt, type Submission } from '../../src/core/record-chain/index.ts';
import { loadOrCreateGatewayKey } from '../../src/gateway/keys.ts';
import { SqliteSubmissionStore } from '../../src/gateway/store.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { countOps, difference, mountTmpfs, prng, REPO_ROOT, runNode, SEED, snapshot, TMPFS_MISSING, TRIALS } from './helpers.ts';

const TAG = `intake accept faults seed=${SEED} (replay: FAULT_SEED=${SEED} FAULT_TRIALS=${TRIALS})`;
const DRIVER = 'tests/faults/intake-driver.ts';
const work = mkdtempSync(join(tmpdir(), 'fault-intake-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let correctionReceipt = '';
let reference: Map<string, Buffer>;
let referencePath = '';
let ops = 0;

const intake = (records: string, data: string, argv: string[], extra: { killAt?: number; seed?: number } = {}) =>
  runNode([DRIVER, ...argv], { env: { RECORDS_DIR: records, GATEWAY_DATA_DIR: data }, ...extra });

async function stored(data: string) {
  const store = new SqliteSubmissionStore(data);
  try {
    return await store.get(correctionReceipt);
  } finally {
    await store.close();
  }
}

function copyTemplate(to: string): { records: string; data: string } {
  const records = join(to, 'records');
  const data = join(to, 'data');
  cpSync(join(work, 'template/records'), records, { recursive: true });
  cpSync(join(work, 'template/data'), data, { recursive: true });
  return { records, data };
}

/** The repository's archive with an accepted echo, and a pending correction of it by the same key. */
beforeAll(async () => {
  const records = join(work, 'template/records');
  const data = join(work, 'template/data');
  cpSync(join(REPO_ROOT, 'records'), records, { recursive: true });
  const keys = loadOrCreateGatewayKey(data);
  const store = new SqliteSubmissionStore(data);
  const put = async (sub: Submission) => {
    const receipt = signReceipt(buildReceipt({ submissionSha256: sub.proof.content_hash_sha256, recordType: sub.record_type, indexUrl: 'http://127.0.0.1:1/api/index.json', gatewayKeyId: keys.keyId }), keys.privateKey);
    await store.putIfAbsent({ receiptId: receipt.receipt_id, submissionSha256: receipt.submission_sha256, recordType: sub.record_type, receivedAt: receipt.received_at, receipt, submissionText: serializeSubmission(sub) });
    return receipt;
  };
  const echo = await put(submission('echo'));
  const correction = await put(submission('correction', record('correction', { target: { submission_sha256: echo.submission_sha256 } })));
  correctionReceipt = correction.receipt_id;
  await store.close();
  const first = intake(records, data, ['accept', echo.receipt_id]);
  expect(first.code, first.output).toBe(0);

  const clean = copyTemplate(join(work, 'clean'));
  const r = intake(clean.records, clean.data, ['accept', correctionReceipt]);
  expect(r.code, r.output).toBe(0);
  expect(r.output).toContain('superseded');
  reference = snapshot(clean.records);
  referencePath = (await stored(clean.data))!.archivePath!;
  const counting = copyTemplate(join(work, 'count'));
  ops = countOps([DRIVER, 'accept', correctionReceipt], { RECORDS_DIR: counting.records, GATEWAY_DATA_DIR: counting.data });
}, 60_000);

/** Accepts again after a fault: 0, or 1 when the interrupted run had already marked it accepted. */
function acceptAgain(records: string, data: string, where: string): string {
  const again = intake(records, data, ['accept', correctionReceipt]);
  if (again.code === 1) expect(again.output, where).toContain('is already accepted');
  else expect(again.code, `${where}: ${again.output}`).toBe(0);
  return again.output;
}

const temporaries = (dir: string) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) => /\.tmp$|\.intake-journal\.json$/.test(p));

describe('intake accept killed mid-write', () => {
  it(`${TRIALS} seeded SIGKILLs at random file-changing calls: the archive loads whole or refuses by name; accepting again finishes it, byte-identical`, async () => {
    const rand = prng(SEED);
    const seen = { killed: 0, refusedToLoad: 0, recovered: 0 };
    for (let t = 0; t < TRIALS; t++) {
      const killAt = 1 + Math.floor(rand() * ops);
      const where = `${TAG} trial ${t} killAt ${killAt}/${ops}`;
      const { records, data } = copyTemplate(join(work, `trial-${t}`));
      const killed = intake(records, data, ['accept', correctionReceipt], { killAt, seed: SEED + t });
      expect(killed.signal, `${where}: ${killed.output}`).toBe('SIGKILL');
      seen.killed++;
      try {
        await loadArchive(records);
      } catch (err) {
        expect(err, where).toBeInstanceOf(ArchiveRootError);
        expect((err as Error).message, where).toMatch(/intake-journal|interrupted/);
        seen.refusedToLoad++;
      }
      if (acceptAgain(records, data, where).includes('recovered an interrupted accept')) seen.recovered++;
      expect(difference(reference, snapshot(records)), where).toBeUndefined();
      expect(temporaries(records), where).toEqual([]);
      expect(await stored(data), where).toMatchObject({ status: 'accepted', archivePath: referencePath });
      await loadArchive(records);
      rmSync(join(work, `trial-${t}`), { recursive: true, force: true });
    }
    console.log(`[intake-accept-kill] ${JSON.stringify({ seed: SEED, trials: TRIALS, file_changing_calls: ops, ...seen, survived: TRIALS })}`);
  }, 600_000);
});

describe('intake accept on a disk that fills mid-way', () => {
  const fs = mountTmpfs(4 * 1024 * 1024);
  if (!fs) console.warn(TMPFS_MISSING);
  afterAll(() => fs?.unmount());

  it.skipIf(!fs)('fails naming ENOSPC, marks nothing accepted, leaves no part-written file; completes once space is freed', async () => {
    const results: string[] = [];
    let failures = 0;
    for (const leave of [0, 4096, 8192, 12288, 16384, 24576]) {
      rmSync(join(fs!.dir, 'records'), { recursive: true, force: true });
      fs!.free();
      const data = join(work, `full-data-${leave}`);
      cpSync(join(work, 'template/data'), data, { recursive: true }); // the store is not on the full disk
      const records = join(fs!.dir, 'records');
      cpSync(join(work, 'template/records'), records, { recursive: true });
      fs!.fill(leave);
      const r = intake(records, data, ['accept', correctionReceipt]);
      if (r.code !== 0) {
        failures++;
        expect(r.code, r.output).toBe(2);
        expect(r.output).toMatch(/no space left on device \(ENOSPC\)/);
        expect((await stored(data))!.status).toBe('pending');
        expect(temporaries(records).filter((p) => p.endsWith('.tmp'))).toEqual([]);
        // Every archive file is its old bytes or its new ones, never part of either (the journal aside: it is made
        // whole before it is linked into place).
        const before = snapshot(join(work, 'template/records'));
        for (const [path, bytes] of snapshot(records, (p) => p === '.filler' || p === '.intake-journal.json')) {
          expect(bytes.equals(before.get(path) ?? Buffer.alloc(0)) || bytes.equals(reference.get(path) ?? Buffer.alloc(0)), path).toBe(true);
        }
      }
      results.push(`${leave}:${r.code}`);
      fs!.free();
      acceptAgain(records, data, `free ${leave}`);
      expect(difference(reference, snapshot(records, (p) => p === '.filler')), `free ${leave}`).toBeUndefined();
      expect(await stored(data)).toMatchObject({ status: 'accepted', archivePath: referencePath });
      rmSync(data, { recursive: true, force: true });
    }
    expect(failures, results.join(' ')).toBeGreaterThan(0);
    console.log(`[intake-accept-disk-full] ${JSON.stringify({ runs: results.length, failed_enospc: failures, recovered: results.length })}`);
  }, 120_000);
});
