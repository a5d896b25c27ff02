/**
 * The shared store: PostgreSQL through node-postgres (`pg`), for several gateway instances on one database
 * (GATEWAY_DATABASE_URL=postgres://…). Same contract as the embedded SQLite store (store.ts).
 *
 * Idempotency across instances: put-if-absent is one statement, `INSERT … ON CONFLICT (submission_sha256) DO NOTHING
 * RETURNING`, on a UNIQUE column. When two instances insert the same submission at once, PostgreSQL makes the second
 * wait for the first to commit and then inserts nothing; the loser reads the winner's row and answers its receipt, so
 * a submission is stored once and has one receipt whichever instance took it.
 * Durability: every statement commits on its own with synchronous_commit=on (forced per connection, whatever the
 * server's default), so a receipt is only sent after its row is in the server's WAL on disk.
 * Migrations: numbered, run at start in one transaction under an advisory lock (instances starting together wait
 * for each other), each recorded in gateway_schema_migrations; running them again changes nothing.
 */
import pg from 'pg';
import type { ReceiptState } from '../../core/record-chain/index.ts';
import { fromRow, StorageError, type Decision, type NewSubmission, type PutResult, type Row, type StoredSubmission, type SubmissionStore } from '../store.ts';

/**
 * Each entry runs once, in order; never edit one that has shipped: add the next. The table has the SQLite store's
 * columns (store.ts), written out again on purpose: a shipped migration must not change when the SQLite table does;
 * the one store contract test (tests/gateway/store.test.ts) keeps the two equivalent.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS submissions (
     receipt_id TEXT PRIMARY KEY,
     submission_sha256 TEXT NOT NULL UNIQUE,
     record_type TEXT NOT NULL,
     received_at TEXT NOT NULL,
     receipt_json TEXT NOT NULL,
     submission_text TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
     reason TEXT,
     archive_path TEXT,
     decided_at TEXT
   );
   CREATE INDEX IF NOT EXISTS submissions_status_received ON submissions (status, received_at, receipt_id);`,
  // 2: guardian applications (docs/guardians.md): the key a guardian_application registers, and at most one pending
  // or accepted application per key, enforced by the database itself, so two instances cannot both store one.
  `ALTER TABLE submissions ADD COLUMN IF NOT EXISTS guardian_key_sha256 TEXT;
   CREATE UNIQUE INDEX IF NOT EXISTS submissions_guardian_key ON submissions (guardian_key_sha256)
     WHERE guardian_key_sha256 IS NOT NULL AND status IN ('pending', 'accepted');`,
];

/** An arbitrary constant: the advisory lock that serialises migrations between instances starting at once. */
const MIGRATION_LOCK = 0x6563686f; // "echo"

const COLUMNS = 'receipt_id, submission_sha256, record_type, received_at, receipt_json, submission_text, status, reason, archive_path, decided_at, guardian_key_sha256';
const APPLICATION_BY_KEY = `SELECT ${COLUMNS} FROM submissions WHERE guardian_key_sha256 = $1 AND status IN ('pending', 'accepted') ORDER BY received_at, receipt_id LIMIT 1`;

export interface PostgresStoreOptions {
  /** Connections per gateway instance (default 10). */
  poolSize?: number;
  /** How long a request waits for a connection or the server before the gateway answers 503 (default 5 s). */
  connectTimeoutMs?: number;
  /** Longest statement (default 10 s). */
  statementTimeoutMs?: number;
}

/**
 * Whether a failure to reach PostgreSQL may pass by itself (the server is down, restarting, starting up, or not
 * reachable over the network yet), as opposed to a setting that is wrong (a bad password, a database that does not
 * exist): the gateway waits out the first kind at start, not ready, and stops on the second.
 */
export function isTransientDatabaseError(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = String(e.code ?? '');
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03', '53300'].includes(code)) return true;
    if (/connection timeout|Connection terminated|the database system is (starting up|shutting down|in recovery mode)|timeout expired/i.test(String(e.message ?? ''))) return true;
  }
  return false;
}

/** Where the URL points, without its password: for messages. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.host}${u.pathname}`;
  } catch {
    return 'an unparsable database URL';
  }
}

export class PostgresSubmissionStore implements SubmissionStore {
  private readonly pool: pg.Pool;
  private closed = false;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** Connects, runs the migrations, and returns the store; a StorageError when the database cannot be used. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresSubmissionStore> {
    const statementTimeout = options.statementTimeoutMs ?? 10_000;
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      options: `-c synchronous_commit=on -c statement_timeout=${statementTimeout}`,
      application_name: 'echo-archive-gateway',
    });
    // An idle connection the server drops (restart, failover) must not crash the process: the next query reconnects.
    pool.on('error', () => undefined);
    const store = new PostgresSubmissionStore(pool);
    try {
      await store.migrate();
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw new StorageError(`cannot open the submission store at ${describeDatabaseUrl(url)}: ${(err as Error).message}`, { cause: err });
    }
    return store;
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(`CREATE TABLE IF NOT EXISTS gateway_schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM gateway_schema_migrations')).rows.map((r) => r.version));
      for (const [i, sql] of MIGRATIONS.entries()) {
        if (done.has(i + 1)) continue;
        await client.query(sql);
        await client.query('INSERT INTO gateway_schema_migrations (version) VALUES ($1)', [i + 1]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private async rows(what: string, sql: string, params: unknown[]): Promise<Row[]> {
    if (this.closed) throw new StorageError(`${what}: the store is closed`);
    try {
      return (await this.pool.query<Row>(sql, params)).rows;
    } catch (err) {
      throw new StorageError(`${what}: ${(err as Error).message}`);
    }
  }

  async putIfAbsent(entry: NewSubmission): Promise<PutResult> {
    // ON CONFLICT without a target: a conflict on submission_sha256 or on the guardian key's unique partial index
    // (a pending or accepted application for the same key) inserts nothing, after waiting for a concurrent insert to
    // commit; which one it was is read below.
    const inserted = await this.rows(
      'storing the submission',
      `INSERT INTO submissions (receipt_id, submission_sha256, record_type, received_at, receipt_json, submission_text, status, guardian_key_sha256)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)
       ON CONFLICT DO NOTHING
       RETURNING ${COLUMNS}`,
      [entry.receiptId, entry.submissionSha256, entry.recordType, entry.receivedAt, JSON.stringify(entry.receipt), entry.submissionText, entry.guardianKeySha256 ?? null],
    );
    if (inserted[0]) return { stored: fromRow(inserted[0]), duplicate: false };
    // Nothing inserted: the conflicting row exists, committed, and a new statement sees it.
    const existing = await this.rows('reading the stored submission', `SELECT ${COLUMNS} FROM submissions WHERE submission_sha256 = $1`, [entry.submissionSha256]);
    if (existing[0]) return { stored: fromRow(existing[0]), duplicate: true };
    if (entry.guardianKeySha256 !== undefined) {
      const taken = await this.rows('reading guardian applications', APPLICATION_BY_KEY, [entry.guardianKeySha256]);
      if (taken[0]) return { stored: fromRow(taken[0]), duplicate: false, guardianKeyTaken: true };
    }
    throw new StorageError(`storing the submission: ${entry.submissionSha256} conflicted but no conflicting row is stored (decided meanwhile?): send it again`);
  }

  async findGuardianApplication(guardianKeySha256: string): Promise<StoredSubmission | undefined> {
    const found = await this.rows('reading guardian applications', APPLICATION_BY_KEY, [guardianKeySha256]);
    return found[0] ? fromRow(found[0]) : undefined;
  }

  async get(id: string): Promise<StoredSubmission | undefined> {
    const found = await this.rows('reading the submission', `SELECT ${COLUMNS} FROM submissions WHERE receipt_id = $1 OR submission_sha256 = $1`, [id]);
    return found[0] ? fromRow(found[0]) : undefined;
  }

  async getBySubmissionSha256(submissionSha256: string): Promise<StoredSubmission | undefined> {
    const found = await this.rows('reading the submission', `SELECT ${COLUMNS} FROM submissions WHERE submission_sha256 = $1`, [submissionSha256]);
    return found[0] ? fromRow(found[0]) : undefined;
  }

  /** One round trip on a pooled connection (a new one when the server dropped the old): the table answers. */
  async ping(): Promise<void> {
    await this.rows('pinging the store', 'SELECT 1 FROM submissions LIMIT 1', []);
  }

  async list(status?: ReceiptState): Promise<StoredSubmission[]> {
    const found = status
      ? await this.rows('listing submissions', `SELECT ${COLUMNS} FROM submissions WHERE status = $1 ORDER BY received_at, receipt_id`, [status])
      : await this.rows('listing submissions', `SELECT ${COLUMNS} FROM submissions ORDER BY received_at, receipt_id`, []);
    return found.map(fromRow);
  }

  async decide(receiptId: string, decision: Decision): Promise<StoredSubmission | undefined> {
    await this.rows(
      'recording the decision',
      `UPDATE submissions SET status = $1, reason = $2, archive_path = $3, decided_at = $4 WHERE receipt_id = $5 AND status = 'pending'`,
      [decision.status, decision.reason ?? null, decision.archivePath ?? null, decision.decidedAt, receiptId],
    );
    const found = await this.rows('reading the submission', `SELECT ${COLUMNS} FROM submissions WHERE receipt_id = $1`, [receiptId]);
    return found[0] ? fromRow(found[0]) : undefined;
  }

  async countByStatus(): Promise<Record<ReceiptState, number>> {
    const found = (await this.rows('counting submissions', 'SELECT status, count(*)::int AS n FROM submissions GROUP BY status', [])) as unknown as { status: ReceiptState; n: number }[];
    const counts: Record<ReceiptState, number> = { pending: 0, accepted: 0, rejected: 0 };
    for (const { status, n } of found) counts[status] = n;
    return counts;
  }

  /** The durability setting in force on this store's connections ("on"). */
  async durability(): Promise<{ synchronousCommit: string }> {
    const found = (await this.rows('reading settings', 'SHOW synchronous_commit', [])) as unknown as { synchronous_commit: string }[];
    return { synchronousCommit: found[0]!.synchronous_commit };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
