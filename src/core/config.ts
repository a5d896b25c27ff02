/** Where things are, from one place: the archive root is `$RECORDS_DIR` when set, else `records/`. */
export const DEFAULT_RECORDS_DIR = 'records';

export function recordsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.RECORDS_DIR && env.RECORDS_DIR.trim() !== '' ? env.RECORDS_DIR : DEFAULT_RECORDS_DIR;
}
