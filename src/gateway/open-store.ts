/**
 * The store the settings name: PostgreSQL when GATEWAY_DATABASE_URL is set (several instances share it), else the
 * embedded SQLite file in the data directory (one instance, nothing to start). The gateway and `npm run intake` both
 * open their store here, so they always look at the same submissions.
 */
import { SqliteSubmissionStore, type SubmissionStore } from './store.ts';
import { describeDatabaseUrl, isTransientDatabaseError, PostgresSubmissionStore } from './stores/postgres.ts';

export interface StoreSettings {
  dataDir: string;
  /** postgres:// or postgresql:// URL; undefined: SQLite in dataDir. */
  databaseUrl?: string;
  /** Connections per instance to PostgreSQL. */
  databasePoolSize?: number;
}

export async function openSubmissionStore(settings: StoreSettings): Promise<SubmissionStore> {
  if (settings.databaseUrl) {
    return PostgresSubmissionStore.open(settings.databaseUrl, settings.databasePoolSize !== undefined ? { poolSize: settings.databasePoolSize } : {});
  }
  return new SqliteSubmissionStore(settings.dataDir);
}

/**
 * Opens the store as openSubmissionStore does, but waits out a PostgreSQL that cannot be reached yet (down,
 * restarting, starting up: isTransientDatabaseError), trying again after 0.5 s, 1 s, 2 s, then every 5 s, and calling
 * `waiting` before each wait; any other failure (a wrong password, a database that does not exist) rejects at once.
 */
export async function openSubmissionStoreWaiting(settings: StoreSettings, waiting: (err: Error, retryInMs: number) => void): Promise<SubmissionStore> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openSubmissionStore(settings);
    } catch (err) {
      if (!settings.databaseUrl || !isTransientDatabaseError(err)) throw err;
      const retryInMs = Math.min(5_000, 500 * 2 ** attempt);
      waiting(err as Error, retryInMs);
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  }
}

/** One line for the start-up message: where the submissions are (never a password). */
export function describeStore(settings: StoreSettings): string {
  return settings.databaseUrl ? `PostgreSQL at ${describeDatabaseUrl(settings.databaseUrl)}` : `SQLite in ${settings.dataDir}`;
}
