/** The embedded store: durable settings, idempotency, and an acknowledged receipt surviving kill -9. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { serializeSubmission, SUBMIT_PATH } from '../../src/core/record-chain/index.ts';
import { KEYS_DOCUMENT_FILE, loadOrCreateGatewayKey, PRIVATE_KEY_FILE } from '../../src/gateway/keys.ts';
import { DATABASE_FILE, SqliteSubmissionStore } from '../../src/gateway/store.ts';
import { publishedGatewayKeys } from '../../src/gateway/published-keys.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { postJson } from './helpers.ts';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'gateway-store-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('gateway key and published keys', () => {
  it('creates the key once, mode 0600, and publishes only public fields', () => {
    const dir = temp();
    const a = loadOrCreateGatewayKey(dir);
    expect(statSync(join(dir, PRIVATE_KEY_FILE)).mode & 0o777).toBe(0o600);
    const b = loadOrCreateGatewayKey(dir);
    expect(b.keyId).toBe(a.keyId);
    expect(publishedGatewayKeys({ GATEWAY_DATA_DIR: dir })).toEqual(a.document);
    expect(publishedGatewayKeys({ GATEWAY_KEYS_FILE: join(dir, KEYS_DOCUMENT_FILE) })).toEqual(a.document);
    expect(publishedGatewayKeys({ GATEWAY_DATA_DIR: join(dir, 'absent') })).toEqual({ schema: 'service.gateway-keys.v1', keys: [] });
    expect(() => publishedGatewayKeys({ GATEWAY_KEYS_FILE: join(dir, PRIVATE_KEY_FILE) })).toThrow();
  });
});

describe('SqliteSubmissionStore', () => {
  it('uses WAL with synchronous=FULL and stores each submission_sha256 once', async () => {
    const dir = temp();
    const keys = loadOrCreateGatewayKey(dir);
    const store = new SqliteSubmissionStore(dir);
    expect(store.durability()).toEqual({ journalMode: 'wal', synchronous: 2 });
    const entry = {
      receiptId: 'rcpt_' + 'a'.repeat(32),
      submissionSha256: 'b'.repeat(64),
      recordType: 'echo' as const,
      receivedAt: '2026-11-22T00:00:00.000Z',
      receipt: { receipt_id: 'rcpt_' + 'a'.repeat(32) } as never,
      submissionText: '{}',
    };
    expect((await store.putIfAbsent(entry)).duplicate).toBe(false);
    const again = await store.putIfAbsent({ ...entry, receiptId: 'rcpt_' + 'c'.repeat(32) });
    expect(again.duplicate).toBe(true);
    expect(again.stored.receiptId).toBe(entry.receiptId);
    expect(await store.decide(entry.receiptId, { status: 'accepted', archivePath: '2026/x.json', decidedAt: 'now' })).toMatchObject({ status: 'accepted', archivePath: '2026/x.json' });
    // A decided submission is not decided again.
    expect(await store.decide(entry.receiptId, { status: 'rejected', reason: 'r', decidedAt: 'later' })).toMatchObject({ status: 'accepted' });
    await store.close();
    const db = new DatabaseSync(join(dir, DATABASE_FILE));
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();
    expect(keys.keyId).toMatch(/^gw-ed25519-/);
  });

  it('an acknowledged receipt survives kill -9 of the gateway', async () => {
    const dir = temp();
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'src/gateway/main.ts'], {
      env: { ...process.env, GATEWAY_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', GATEWAY_RATE_LIMIT: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`gateway exited ${code}`)));
      });
      const r = await postJson(url + SUBMIT_PATH, serializeSubmission(submission('echo', record('echo'))));
      expect(r.status).toBe(202);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const store = new SqliteSubmissionStore(dir);
      const stored = await store.get(r.body.receipt.receipt_id);
      await store.close();
      expect(stored?.receipt).toEqual(r.body.receipt);
      expect(stored?.status).toBe('pending');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

describe('gateway key rotation', () => {
  it('keeps retired keys in the document and adds the new key', async () => {
    const { renameSync, writeFileSync, readFileSync } = await import('node:fs');
    const dir = temp();
    const first = loadOrCreateGatewayKey(dir);
    const doc = { ...first.document, keys: first.document.keys.map((k) => ({ ...k, status: 'retired' as const })) };
    writeFileSync(join(dir, KEYS_DOCUMENT_FILE), JSON.stringify(doc));
    expect(() => loadOrCreateGatewayKey(dir)).toThrow(/retired/);
    renameSync(join(dir, PRIVATE_KEY_FILE), join(dir, 'old.key'));
    const second = loadOrCreateGatewayKey(dir);
    expect(second.keyId).not.toBe(first.keyId);
    const published = JSON.parse(readFileSync(join(dir, KEYS_DOCUMENT_FILE), 'utf8'));
    expect(published.keys.map((k: { key_id: string; status: string }) => [k.key_id, k.status])).toEqual([
      [first.keyId, 'retired'],
      [second.keyId, 'active'],
    ]);
  });
});
