/**
 * Where the gateway keeps submissions: a small interface (so that several gateway instances can share a database)
 * and its default, Node's built-in `node:sqlite` (no server, no native build).
 *
 * Durability: WAL journal with synchronous=FULL, and every intake is one transaction (BEGIN IMMEDIATE … COMMIT), so
 * a receipt is only sent after its row is on disk (it survives kill -9), and a submission is never half-stored.
 * Idempotency: submission_sha256 is UNIQUE; putIfAbsent returns the stored row when it exists.
 * The shared store for several instances is PostgreSQL (stores/postgres.ts); open-store.ts picks one from the settings.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Receipt, ReceiptState, RecordType } from '../core/record-chain/index.ts';

export interface StoredSubmission {
  receiptId: string;
  submissionSha256: string;
  recordType: RecordType;
  receivedAt: string;
  /** The signed receipt, as issued. */
  receipt: Receipt;
  /** The submission body exactly as received (UTF-8 text). */
  submissionText: string;
  status: ReceiptState;
  /** Why it was rejected. */
  reason?: string;
  /** Archive path of the record written on accept. */
  archivePath?: string;
  decidedAt?: string;
  /**
   * For a guardian_application: the SHA-256 of the key it registers (= the signing key's, chain/guardian-id). At most
   * one pending or accepted application per key (a unique partial index: race-free across instances).
   */
  guardianKeySha256?: string;
}

export type NewSubmission = Omit<StoredSubmission, 'status' | 'reason' | 'archivePath' | 'decidedAt'>;

export interface Decision {
  status: 'accepted' | 'rejected';
  reason?: string;
  archivePath?: string;
  decidedAt: string;
}

/**
 * What putIfAbsent did: stored `entry` (duplicate false), found its submission_sha256 already stored (duplicate
 * true: `stored` is that row), or refused a guardian_application whose key already has a pending or accepted one
 * (guardianKeyTaken true: `stored` is that other application; nothing was stored).
 */
export interface PutResult {
  stored: StoredSubmission;
  duplicate: boolean;
  guardianKeyTaken?: true;
}

export interface SubmissionStore {
  /**
   * Stores `entry` unless its submission_sha256 is already stored, or (with guardianKeySha256) another pending or
   * accepted application registers the same key; atomic, also between instances on one database.
   */
  putIfAbsent(entry: NewSubmission): Promise<PutResult>;
  /** The pending or accepted guardian_application registering the key with this SHA-256, if any (the earliest). */
  findGuardianApplication(guardianKeySha256: string): Promise<StoredSubmission | undefined>;
  /** By receipt id or submission_sha256. */
  get(id: string): Promise<StoredSubmission | undefined>;
  /** By submission_sha256 only (GET /record-chain/submissions/{submission_sha256}: a receipt id never matches). */
  getBySubmissionSha256(submissionSha256: string): Promise<StoredSubmission | undefined>;
  list(status?: ReceiptState): Promise<StoredSubmission[]>;
  /** Records a review decision (only a pending submission can be decided). Returns the updated row. */
  decide(receiptId: string, decision: Decision): Promise<StoredSubmission | undefined>;
  /** How many submissions are in each state (for the metrics; a store without it has no such gauge). */
  countByStatus?(): Promise<Record<ReceiptState, number>>;
  /**
   * A cheap query that proves the store is open and its table readable (for /readyz): resolves, or rejects with a
   * StorageError. It reads no row's contents.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Any failure of the storage layer: the gateway answers 503. */
export class StorageError extends Error {}

/** A row of the submissions table, as both stores (SQLite here, PostgreSQL in stores/postgres.ts) read it. */
export interface Row {
  receipt_id: string;
  submission_sha256: string;
  record_type: string;
  received_at: string;
  receipt_json: string;
  submission_text: string;
  status: string;
  reason: string | null;
  archive_path: string | null;
  decided_at: string | null;
  guardian_key_sha256?: string | null;
}

export function fromRow(row: Row): StoredSubmission {
  return {
    receiptId: row.receipt_id,
    submissionSha256: row.submission_sha256,
    recordType: row.record_type as RecordType,
    receivedAt: row.received_at,
    receipt: JSON.parse(row.receipt_json) as Receipt,
    submissionText: row.submission_text,
    status: row.status as ReceiptState,
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.archive_path !== null ? { archivePath: row.archive_path } : {}),
    ...(row.decided_at !== null ? { decidedAt: row.decided_at } : {}),
    ...(row.guardian_key_sha256 ? { guardianKeySha256: row.guardian_key_sha256 } : {}),
  };
}

export const DATABASE_FILE = 'submissions.sqlite';

/** The pending or accepted application for a key (the unique partial index allows one; earliest first regardless). */
const APPLICATION_BY_KEY = `SELECT * FROM submissions WHERE guardian_key_sha256 = ? AND status IN ('pending', 'accepted') ORDER BY received_at, receipt_id LIMIT 1`;

/** The embedded store: one SQLite file in the data directory. */
export class SqliteSubmissionStore implements SubmissionStore {
  private readonly db: DatabaseSync;

  constructor(dataDir: string) {
    try {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      this.db = new DatabaseSync(join(dataDir, DATABASE_FILE));
      this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
      this.db.exec(`CREATE TABLE IF NOT EXISTS submissions (
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
      ) STRICT`);
      // Added with the guardian record types (docs/guardians.md): one pending or accepted application per key.
      const columns = this.db.prepare('PRAGMA table_info(submissions)').all() as unknown as { name: string }[];
      if (!columns.some((c) => c.name === 'guardian_key_sha256')) this.db.exec('ALTER TABLE submissions ADD COLUMN guardian_key_sha256 TEXT');
      this.db.exec(
        `CREATE UNIQUE INDEX IF NOT EXISTS submissions_guardian_key ON submissions (guardian_key_sha256) WHERE guardian_key_sha256 IS NOT NULL AND status IN ('pending', 'accepted')`,
      );
    } catch (err) {
      throw new StorageError(`cannot open the submission store in ${dataDir}: ${(err as Error).message}`);
    }
  }

  private run<T>(what: string, fn: () => T): Promise<T> {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err instanceof StorageError ? err : new StorageError(`${what}: ${(err as Error).message}`));
    }
  }

  private row(sql: string, ...params: string[]): StoredSubmission | undefined {
    const row = this.db.prepare(sql).get(...params) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  putIfAbsent(entry: NewSubmission): Promise<PutResult> {
    return this.run('storing the submission', () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const existing = this.row('SELECT * FROM submissions WHERE submission_sha256 = ?', entry.submissionSha256);
        if (existing) {
          this.db.exec('COMMIT');
          return { stored: existing, duplicate: true };
        }
        if (entry.guardianKeySha256 !== undefined) {
          const taken = this.row(APPLICATION_BY_KEY, entry.guardianKeySha256);
          if (taken) {
            this.db.exec('COMMIT');
            return { stored: taken, duplicate: false, guardianKeyTaken: true };
          }
        }
        this.db
          .prepare(
            `INSERT INTO submissions (receipt_id, submission_sha256, record_type, received_at, receipt_json, submission_text, status, guardian_key_sha256)
             VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)`,
          )
          .run(
            entry.receiptId,
            entry.submissionSha256,
            entry.recordType,
            entry.receivedAt,
            JSON.stringify(entry.receipt),
            entry.submissionText,
            entry.guardianKeySha256 ?? null,
          );
        this.db.exec('COMMIT');
        return { stored: { ...entry, status: 'pending' as const }, duplicate: false };
      } catch (err) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // the transaction is already gone
        }
        throw err;
      }
    });
  }

  get(id: string): Promise<StoredSubmission | undefined> {
    return this.run('reading the submission', () => this.row('SELECT * FROM submissions WHERE receipt_id = ? OR submission_sha256 = ?', id, id));
  }

  findGuardianApplication(guardianKeySha256: string): Promise<StoredSubmission | undefined> {
    return this.run('reading guardian applications', () => this.row(APPLICATION_BY_KEY, guardianKeySha256));
  }

  getBySubmissionSha256(submissionSha256: string): Promise<StoredSubmission | undefined> {
    return this.run('reading the submission', () => this.row('SELECT * FROM submissions WHERE submission_sha256 = ?', submissionSha256));
  }

  ping(): Promise<void> {
    return this.run('pinging the store', () => {
      if (!this.db.isOpen) throw new StorageError('pinging the store: the store is closed');
      this.db.prepare('SELECT 1 FROM submissions LIMIT 1').get();
    });
  }

  list(status?: ReceiptState): Promise<StoredSubmission[]> {
    return this.run('listing submissions', () => {
      const rows = (
        status
          ? this.db.prepare('SELECT * FROM submissions WHERE status = ? ORDER BY received_at, receipt_id').all(status)
          : this.db.prepare('SELECT * FROM submissions ORDER BY received_at, receipt_id').all()
      ) as unknown as Row[];
      return rows.map(fromRow);
    });
  }

  decide(receiptId: string, decision: Decision): Promise<StoredSubmission | undefined> {
    return this.run('recording the decision', () => {
      this.db
        .prepare(`UPDATE submissions SET status = ?, reason = ?, archive_path = ?, decided_at = ? WHERE receipt_id = ? AND status = 'pending'`)
        .run(decision.status, decision.reason ?? null, decision.archivePath ?? null, decision.decidedAt, receiptId);
      return this.row('SELECT * FROM submissions WHERE receipt_id = ?', receiptId);
    });
  }

  countByStatus(): Promise<Record<ReceiptState, number>> {
    return this.run('counting submissions', () => {
      const counts: Record<ReceiptState, number> = { pending: 0, accepted: 0, rejected: 0 };
      const rows = this.db.prepare('SELECT status, count(*) AS n FROM submissions GROUP BY status').all() as unknown as { status: ReceiptState; n: number }[];
      for (const { status, n } of rows) counts[status] = Number(n);
      return counts;
    });
  }

  /** The durability settings in force on this connection (journal_mode wal, synchronous 2 = FULL). */
  durability(): { journalMode: string; synchronous: number } {
    const journal = this.db.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
    const sync = this.db.prepare('PRAGMA synchronous').get() as { synchronous: number };
    return { journalMode: journal.journal_mode, synchronous: Number(sync.synchronous) };
  }

  close(): Promise<void> {
    return this.run('closing the store', () => {
      if (this.db.isOpen) this.db.close();
    });
  }
}
