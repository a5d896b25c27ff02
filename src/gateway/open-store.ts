/**
 * The store the settings name: PostgreSQL when GATEWAY_DATABASE_URL is set (several instances share it), else the
 * embedded SQLite file in the data directory (one instance, nothing to start). The gateway and `npm run intake` both
 * open their store here, so they always look at the same submissions.
 */
import { SqliteSubmissionStore, type SubmissionStore } from './store.ts';
import { describeDatabaseUrl, PostgresSubmissionStore } from './stores/postgres.ts';

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

/** One line for the start-up message: where the submissions are (never a password). */
export function describeStore(settings: StoreSettings): string {
  return settings.databaseUrl ? `PostgreSQL at ${describeDatabaseUrl(settings.databaseUrl)}` : `SQLite in ${settings.dataDir}`;
}
