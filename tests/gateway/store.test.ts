/**
 * The submission stores, SQLite and PostgreSQL (a real server, scripts/lib/postgres-server.ts): one contract run on both
 * (idempotency, concurrent puts, order, decisions, restart, kill -9 of the gateway), and each one's durability.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { privateKeyFromPem } from '../../src/core/crypto/ed25519.ts';
import { KeyFileError } from '../../src/core/crypto/key-file.ts';
import { RECEIPTS_PATH, serializeSubmission, SUBMIT_PATH } from '../../src/core/record-chain/index.ts';
import { KEYS_DOCUMENT_FILE, loadOrCreateGatewayKey, PRIVATE_KEY_FILE } from '../../src/gateway/keys.ts';
import { DATABASE_FILE, SqliteSubmissionStore, StorageError, type NewSubmission, type SubmissionStore } from '../../src/gateway/store.ts';
import { MIGRATIONS, PostgresSubmissionStore } from '../../src/gateway/stores/postgres.ts';
import { publishedGatewayKeys } from '../../src/gateway/published-keys.ts';
import { record, submission } from '../record-chain/helpers.ts';
import { spawnGateway } from './child-gateway.ts';
import { call, postgresForThisFile, postJson, startGateway } from './helpers.ts';
import { POSTGRES_MISSING } from '../../scripts/lib/postgres-server.ts';

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

  it.runIf(process.platform !== 'win32')('refuses a key file group or others may open: the gateway does not start, says why, and the key is untouched', async () => {
    const dir = temp();
    loadOrCreateGatewayKey(dir);
    const keyPath = join(dir, PRIVATE_KEY_FILE);
    const pem = readFileSync(keyPath, 'utf8');
    chmodSync(keyPath, 0o640);
    const message = `the gateway key file ${keyPath} allows access by group or others (mode 640): run "chmod 600 ${keyPath}" first`;
    expect(() => loadOrCreateGatewayKey(dir)).toThrow(KeyFileError);
    expect(() => loadOrCreateGatewayKey(dir)).toThrow(message);
    const child = spawnGateway(dir);
    expect(await child.exited).toEqual({ code: 2, signal: null });
    expect(child.output()).toBe(`gateway: ${message}\n`);
    expect(readFileSync(keyPath, 'utf8')).toBe(pem);
    chmodSync(keyPath, 0o600);
    expect(loadOrCreateGatewayKey(dir).privateKey.equals(privateKeyFromPem(pem))).toBe(true);
  });
});

/** One store under test: how to open it (again) on the same data. */
interface StoreKind {
  name: string;
  /** A fresh, empty store location; `open` opens it, as often as needed (a restart). */
  fresh(): Promise<{ open: () => Promise<SubmissionStore>; env: Record<string, string> }>;
}

const pg = postgresForThisFile();

const KINDS: StoreKind[] = [
  {
    name: 'SQLite',
    fresh: async () => {
      const dir = temp();
      return { open: async () => new SqliteSubmissionStore(dir), env: { GATEWAY_DATA_DIR: dir } };
    },
  },
  {
    name: 'PostgreSQL',
    fresh: async () => {
      const url = await pg.server()!.createDatabase();
      return { open: () => PostgresSubmissionStore.open(url), env: { GATEWAY_DATABASE_URL: url } };
    },
  },
];

let serial = 0;
function entry(overrides: Partial<NewSubmission> = {}): NewSubmission {
  const n = ++serial;
  const receiptId = `rcpt_${n.toString(16).padStart(32, '0')}`;
  return {
    receiptId,
    submissionSha256: n.toString(16).padStart(64, 'b'),
    recordType: 'echo',
    receivedAt: `2026-11-22T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
    receipt: { receipt_id: receiptId, note: 'ünïcödé ✓' } as never,
    submissionText: `{"n": ${n}, "text": "ünïcödé ✓"}`,
    ...overrides,
  };
}

// The contract every SubmissionStore keeps, run on both stores.
describe.each(KINDS)('SubmissionStore contract: $name', (kind) => {
  const skip = kind.name === 'PostgreSQL' && POSTGRES_MISSING !== undefined;
  const opened: SubmissionStore[] = [];
  const open = async (fresh: { open: () => Promise<SubmissionStore> }) => {
    const store = await fresh.open();
    opened.push(store);
    return store;
  };
  afterAll(async () => {
    for (const s of opened) await s.close().catch(() => undefined);
  });

  it.skipIf(skip)('stores a submission once: a second put answers the first row, byte for byte', async () => {
    const store = await open(await kind.fresh());
    const first = entry();
    const put = await store.putIfAbsent(first);
    expect(put).toEqual({ stored: { ...first, status: 'pending' }, duplicate: false });
    const again = await store.putIfAbsent({ ...first, receiptId: 'rcpt_' + 'c'.repeat(32), receivedAt: '2027-01-01T00:00:00.000Z', submissionText: '{}' });
    expect(again).toEqual({ stored: { ...first, status: 'pending' }, duplicate: true });
    expect(await store.get(first.receiptId)).toEqual({ ...first, status: 'pending' });
    expect(await store.get(first.submissionSha256)).toEqual({ ...first, status: 'pending' });
    expect(await store.get('rcpt_' + 'c'.repeat(32))).toBeUndefined();
    expect(await store.get('rcpt_' + 'f'.repeat(32))).toBeUndefined();
  });

  it.skipIf(skip)('finds a submission by its submission_sha256 only: a receipt id or an unknown hash finds nothing', async () => {
    const store = await open(await kind.fresh());
    const e = entry();
    expect(await store.getBySubmissionSha256(e.submissionSha256)).toBeUndefined();
    await store.putIfAbsent(e);
    expect(await store.getBySubmissionSha256(e.submissionSha256)).toEqual({ ...e, status: 'pending' });
    // get() also takes a receipt id; this lookup does not.
    expect(await store.get(e.receiptId)).toEqual({ ...e, status: 'pending' });
    expect(await store.getBySubmissionSha256(e.receiptId)).toBeUndefined();
    expect(await store.getBySubmissionSha256('0'.repeat(64))).toBeUndefined();
    await store.decide(e.receiptId, { status: 'rejected', reason: 'off topic', decidedAt: '2026-11-23T00:00:00.000Z' });
    expect(await store.getBySubmissionSha256(e.submissionSha256)).toMatchObject({ status: 'rejected', reason: 'off topic' });
  });

  it.skipIf(skip)('ping answers while the store is open, and fails with a StorageError once it is closed', async () => {
    const store = await open(await kind.fresh());
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toBeInstanceOf(StorageError);
  });

  it.skipIf(skip)('lists in intake order, by state; decides a pending submission once', async () => {
    const store = await open(await kind.fresh());
    const [a, b, c] = [entry({ receivedAt: '2026-01-01T00:00:03.000Z' }), entry({ receivedAt: '2026-01-01T00:00:01.000Z' }), entry({ receivedAt: '2026-01-01T00:00:02.000Z' })];
    for (const e of [a!, b!, c!]) await store.putIfAbsent(e);
    expect((await store.list()).map((s) => s.receiptId)).toEqual([b!.receiptId, c!.receiptId, a!.receiptId]);
    expect(await store.decide(a!.receiptId, { status: 'accepted', archivePath: '2026/x.json', decidedAt: 'now' })).toMatchObject({ status: 'accepted', archivePath: '2026/x.json', decidedAt: 'now' });
    // A decided submission is not decided again.
    expect(await store.decide(a!.receiptId, { status: 'rejected', reason: 'r', decidedAt: 'later' })).toMatchObject({ status: 'accepted', decidedAt: 'now' });
    expect(await store.decide(b!.receiptId, { status: 'rejected', reason: 'off topic', decidedAt: 'now' })).toMatchObject({ status: 'rejected', reason: 'off topic' });
    expect(await store.decide('rcpt_' + 'e'.repeat(32), { status: 'accepted', decidedAt: 'now' })).toBeUndefined();
    expect((await store.list('pending')).map((s) => s.receiptId)).toEqual([c!.receiptId]);
    expect((await store.list('accepted')).map((s) => s.receiptId)).toEqual([a!.receiptId]);
    expect((await store.list('rejected')).map((s) => s.reason)).toEqual(['off topic']);
    expect(await store.countByStatus!()).toEqual({ pending: 1, accepted: 1, rejected: 1 });
  });

  it.skipIf(skip)('concurrent puts of one submission (several connections) store one row and answer it to all', async () => {
    const fresh = await kind.fresh();
    // Two store objects on the same data: for PostgreSQL two pools, as two gateway instances have.
    const stores = [await open(fresh), await open(fresh)];
    const shared = entry();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => stores[i % 2]!.putIfAbsent({ ...shared, receiptId: `rcpt_${(0xabc000 + i).toString(16).padStart(32, '0')}` })),
    );
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    const winner = answers.find((a) => !a.duplicate)!.stored;
    for (const a of answers) expect(a.stored).toEqual(winner);
    expect((await stores[0]!.list()).filter((s) => s.submissionSha256 === shared.submissionSha256)).toHaveLength(1);
  });

  it.skipIf(skip)('keeps everything across a reopen (restart), and opening again migrates nothing twice', async () => {
    const fresh = await kind.fresh();
    const first = await open(fresh);
    const e = entry();
    await first.putIfAbsent(e);
    await first.close();
    const [again, alongside] = await Promise.all([open(fresh), open(fresh)]);
    expect(await again!.get(e.receiptId)).toEqual({ ...e, status: 'pending' });
    expect((await alongside!.putIfAbsent(e)).duplicate).toBe(true);
    // A closed store fails with a StorageError (the gateway answers 503), never hangs.
    await expect(first.get(e.receiptId)).rejects.toBeInstanceOf(StorageError);
  });

  it.skipIf(skip)('an acknowledged receipt survives kill -9 of the gateway', async () => {
    const fresh = await kind.fresh();
    const dir = temp();
    const child = spawnGateway(dir, fresh.env);
    try {
      const url = await child.ready;
      const r = await postJson(url + SUBMIT_PATH, serializeSubmission(submission('echo', record('echo'))));
      expect(r.status).toBe(202);
      await child.kill();
      const store = await open(fresh);
      const stored = await store.get(r.body.receipt.receipt_id);
      expect(stored?.receipt).toEqual(r.body.receipt);
      expect(stored?.status).toBe('pending');
    } finally {
      await child.kill();
    }
  });
});

describe('durability settings', () => {
  it('SQLite: WAL with synchronous=FULL', async () => {
    const dir = temp();
    const store = new SqliteSubmissionStore(dir);
    expect(store.durability()).toEqual({ journalMode: 'wal', synchronous: 2 });
    await store.close();
    const db = new DatabaseSync(join(dir, DATABASE_FILE));
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    db.close();
  });

  it.skipIf(POSTGRES_MISSING !== undefined)('PostgreSQL: synchronous_commit on even where the server default is off; migrations recorded once', async () => {
    const url = await pg.server()!.createDatabase();
    const dbName = new URL(url).pathname.slice(1);
    await pg.server()!.query(url, `ALTER DATABASE ${dbName} SET synchronous_commit = off`);
    const store = await PostgresSubmissionStore.open(url);
    await PostgresSubmissionStore.open(url).then((s) => s.close());
    try {
      expect(await store.durability()).toEqual({ synchronousCommit: 'on' });
      expect(await pg.server()!.query(url, 'SELECT version FROM gateway_schema_migrations ORDER BY version')).toEqual(MIGRATIONS.map((_, i) => ({ version: i + 1 })));
    } finally {
      await store.close();
    }
  });

  it.skipIf(POSTGRES_MISSING !== undefined)('PostgreSQL outage: 503 storage_unavailable with Retry-After, nothing half-stored, then served again', async () => {
    const server = pg.server()!;
    const store = await PostgresSubmissionStore.open(await server.createDatabase(), { connectTimeoutMs: 2_000 });
    const gw = await startGateway({ store: () => store });
    const submit = (summary: string) => postJson(gw.url + SUBMIT_PATH, serializeSubmission(submission('propagation', record('propagation', { summary }))));
    try {
      const before = await submit('Stored before the outage; the originals prevail.');
      expect(before.status).toBe(202);
      await server.pause();
      const during = await submit('Sent during the outage; the originals prevail.');
      expect([during.status, during.body.error.code, during.headers.get('retry-after')]).toEqual([503, 'storage_unavailable', '7']);
      expect((await call(gw.url + '/healthz')).status).toBe(503);
      await server.resume();
      // The pool reconnects on its own: the same submission is taken now, the earlier one is still there.
      const after = await submit('Sent during the outage; the originals prevail.');
      expect(after.status).toBe(202);
      expect((await call(`${gw.url}${RECEIPTS_PATH}/${before.body.receipt.receipt_id}`)).body.receipt).toEqual(before.body.receipt);
      expect((await store.list()).length).toBe(2);
    } finally {
      await gw.stop();
    }
  });

  it.skipIf(POSTGRES_MISSING !== undefined)('PostgreSQL: a database that cannot be reached is a StorageError naming it without the password', async () => {
    const error = await PostgresSubmissionStore.open('postgres://gw:secret@127.0.0.1:1/nowhere', { connectTimeoutMs: 2_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(String((error as Error).message)).toMatch(/postgres:\/\/gw@127\.0\.0\.1:1\/nowhere/);
    expect(String((error as Error).message)).not.toContain('secret');
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
