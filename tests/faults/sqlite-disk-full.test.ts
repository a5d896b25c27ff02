/**
 * The gateway's SQLite store on a disk that fills (issue 28, item 2): the store's folder on a size-limited tmpfs, a
 * stream of distinct submissions while the disk is full. Held: every submit answers 202 (stored) or 503
 * storage_unavailable with Retry-After, its message naming the cause ("database or disk is full"); receipts already
 * given stay readable; gateway_store_disk_full_errors_total counts the failures and gateway_store_up falls to 0; once
 * space is freed the same gateway (no restart) takes the refused submissions; every acknowledged receipt is stored
 * once, the file passes PRAGMA integrity_check, and a fresh open sees them all.
 * Skipped with a notice where a tmpfs cannot be mounted.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { RECEIPTS_PATH, serializeSubmission, SUBMIT_PATH, type Receipt } from '../../src/core/record-chain/index.ts';
import { GatewayMetrics } from '../../src/gateway/metrics.ts';
import { DATABASE_FILE, SqliteSubmissionStore } from '../../src/gateway/store.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { call, postJson, sample, startGateway } from '../gateway/helpers.ts';
import { mountTmpfs, TMPFS_MISSING } from './helpers.ts';

const fs = mountTmpfs(4 * 1024 * 1024);
if (!fs) console.warn(TMPFS_MISSING);
afterAll(() => fs?.unmount());

const body = (i: number) => serializeSubmission(submission('propagation', record('propagation', { summary: `Disk-full stream ${i}: pointed a reader to the index. ${'x'.repeat(400)}` })));


describe.skipIf(!fs)('the SQLite store on a disk that fills', () => {
  it('503 naming the cause while full, receipts still readable, intake resumes by itself once space is freed; acknowledged = stored', async () => {
    const storeDir = join(fs!.dir, 'data');
    const metrics = new GatewayMetrics({ defaultMetrics: false });
    const gw = await startGateway({ metrics, store: () => new SqliteSubmissionStore(storeDir) });
    const acked = new Map<number, Receipt>();
    const refused: number[] = [];
    const statuses: Record<string, number> = {};
    try {
      let i = 0;
      for (; i < 20; i++) {
        const r = await postJson(gw.url + SUBMIT_PATH, body(i));
        expect(r.status).toBe(202);
        acked.set(i, r.body.receipt);
      }
      fs!.fill(0);
      for (; i < 120; i++) {
        const r = await postJson(gw.url + SUBMIT_PATH, body(i));
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        if (r.status === 202) {
          acked.set(i, r.body.receipt);
          continue;
        }
        expect([r.status, r.body.error.code, r.headers.get('retry-after')], JSON.stringify(r.body)).toEqual([503, 'storage_unavailable', '7']);
        expect(r.body.error.message).toMatch(/database or disk is full|no space left on device/i);
        refused.push(i);
      }
      expect(refused.length, JSON.stringify(statuses)).toBeGreaterThan(50);
      // What was acknowledged stays readable while the disk is full.
      for (const receipt of acked.values()) expect((await call(`${gw.url}${RECEIPTS_PATH}/${receipt.receipt_id}`)).status).toBe(200);
      const m = await metrics.text();
      expect(sample(m, 'gateway_store_disk_full_errors_total')).toBeGreaterThanOrEqual(refused.length);

      fs!.free();
      for (const k of refused) {
        const r = await postJson(gw.url + SUBMIT_PATH, body(k));
        expect(r.status, JSON.stringify(r.body)).toBe(202);
        acked.set(k, r.body.receipt);
      }
      expect(sample(await metrics.text(), 'gateway_store_up')).toBe(1);
    } finally {
      await gw.stop();
    }
    const db = new DatabaseSync(join(storeDir, DATABASE_FILE));
    try {
      expect(db.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
      const rows = db.prepare('SELECT receipt_id, submission_sha256 FROM submissions').all() as { receipt_id: string; submission_sha256: string }[];
      expect(rows.length).toBe(acked.size);
      const byId = new Map(rows.map((r) => [r.receipt_id, r.submission_sha256]));
      for (const receipt of acked.values()) expect(byId.get(receipt.receipt_id)).toBe(receipt.submission_sha256);
    } finally {
      db.close();
    }
    console.log(`[sqlite-disk-full] ${JSON.stringify({ submitted: 120, answered: statuses, refused_503_while_full: refused.length, retried_after_freeing: refused.length, receipts_acknowledged: acked.size, receipts_stored: acked.size })}`);
  }, 60_000);
});
