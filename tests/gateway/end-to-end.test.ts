/**
 * The whole path on loopback (issue 4): keygen → propagation → doctor → preflight → submit (the bundled builder as
 * a child process) → intake accept into a temporary archive → the public index built with the core's publish
 * functions and served with the raw records from 127.0.0.1 → builder readback exits 0. Also: a tampered submission
 * gets 422, a retried submit 200 duplicate, and the receipt verifies with `receipt` against the gateway's keys.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMIT_PATH } from '../../src/core/record-chain/index.ts';
import { runIntake } from '../../src/intake/cli.ts';
import { bundledBuilder, propagationArgs } from '../builder/helpers.ts';
import { postJson, startGateway, type RunningGateway } from './helpers.ts';
import { serveSite, type TestSite } from './site.ts';

const builder = bundledBuilder({ siteUrl: 'http://127.0.0.1:9', gatewayUrl: 'http://127.0.0.1:9' });

describe('record-chain path end to end', () => {
  let gw: RunningGateway;
  let site: TestSite;
  let recordsDir: string;
  beforeAll(async () => {
    gw = await startGateway({ rateLimit: { perClient: { burst: 50, perSecond: 10 }, global: { burst: 100, perSecond: 10 } } });
    recordsDir = mkdtempSync(join(tmpdir(), 'e2e-records-'));
    cpSync('records', recordsDir, { recursive: true });
    site = await serveSite(recordsDir);
  });
  afterAll(async () => {
    await gw.stop();
    await site.close();
    rmSync(recordsDir, { recursive: true, force: true });
  });

  it('keygen → propagation → doctor → preflight → submit → intake accept → index → readback', async () => {
    const dir = builder.tempDir();
    const run = (args: string[]) => builder.run(args, { cwd: dir });
    expect((await run(['keygen', '--key-dir', 'keys'])).code).toBe(0);
    const built = await run(propagationArgs('keys', 'p.json'));
    expect(built.code, built.stderr).toBe(0);
    expect((await run(['doctor', '--file', 'p.json'])).code).toBe(0);
    const pre = await run(['preflight', '--file', 'p.json', '--gateway', gw.url]);
    expect(pre.code, pre.stderr + pre.stdout).toBe(0);
    expect(await gw.store.list()).toEqual([]);

    const sub = await run(['submit', '--file', 'p.json', '--gateway', gw.url, '--receipt-out', 'r.json']);
    expect(sub.code, sub.stderr + sub.stdout).toBe(0);
    const receipt = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(receipt.status).toBe('pending');

    // The receipt verifies against the gateway's published keys.
    writeFileSync(join(dir, 'keys.json'), JSON.stringify(gw.keys.document));
    const verified = await run(['receipt', '--file', 'r.json', '--keys', 'keys.json', '--submission', 'p.json']);
    expect(verified.code, verified.stderr + verified.stdout).toBe(0);

    // A retried submit: 200 duplicate, the original receipt.
    const retry = await postJson(gw.url + SUBMIT_PATH, readFileSync(join(dir, 'p.json'), 'utf8'));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ receipt, duplicate: true });

    // A tampered submission: 422.
    const tampered = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8'));
    tampered.record.summary = 'Pointed readers elsewhere.';
    const bad = await postJson(gw.url + SUBMIT_PATH, JSON.stringify(tampered));
    expect(bad.status).toBe(422);

    // Not included yet: readback says 1.
    const index = `${site.url}/api/index.json`;
    expect((await run(['readback', '--file', 'p.json', '--index', index])).code).toBe(1);

    const out: string[] = [];
    const err: string[] = [];
    const code = await runIntake(['accept', receipt.receipt_id], { out: (l) => out.push(l), err: (l) => err.push(l), env: { RECORDS_DIR: recordsDir }, now: () => new Date() }, gw.store);
    expect(code, err.join('\n')).toBe(0);
    const status = await fetch(`${gw.url}/record-chain/receipts/${receipt.receipt_id}`).then((r) => r.json());
    expect(status.status).toBe('accepted');

    const readback = await run(['readback', '--file', 'p.json', '--index', index]);
    expect(readback.code, readback.stderr + readback.stdout).toBe(0);
    const bySha = await run(['readback', '--submission-sha256', receipt.submission_sha256, '--index', index]);
    expect(bySha.code).toBe(0);
  }, 40_000);
});
