/**
 * A real PostgreSQL server for the tests and bench:gateway (Debian's `postgresql` package): `initdb` into a temporary folder, `pg_ctl
 * start` on a free port on 127.0.0.1, one database per caller, and `stop` kills it and removes the folder.
 * PostgreSQL refuses to run as root: as root, the binaries run as the `postgres` user (`runuser`) in a folder that user
 * owns; otherwise as the current user. Without the binaries (PG_BIN, else /usr/lib/postgresql/<newest>/bin) the
 * caller skips its PostgreSQL tests and says so (`POSTGRES_MISSING`); `.ci/run` installs them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { freePort } from './free-port.ts';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

function findBin(): string | undefined {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

export const POSTGRES_BIN = findBin();
export const POSTGRES_MISSING = POSTGRES_BIN
  ? undefined
  : 'PostgreSQL tests SKIPPED: no initdb/pg_ctl (install Debian\'s postgresql package, or set PG_BIN to its bin folder; .ci/run installs it)';

export interface PostgresServer {
  /** postgres://… for a new, empty database on this server. */
  createDatabase(name?: string): Promise<string>;
  /** Runs one query on a database URL (for checks). */
  query<T extends pg.QueryResultRow>(url: string, sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * An outage: the server stops (fast shutdown, its connections dropped; `immediate`: killed, as by a crash, recovery on
   * the next start) until `resume` starts it again, same port.
   */
  pause(mode?: 'fast' | 'immediate'): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

let databases = 0;

/**
 * Where the server's folder goes: the temporary directory (the test run's own, see tests/helpers/global-tmp.ts),
 * unless the `postgres` user could not reach into it (a folder of root's, mode 0700): then the system's /tmp.
 */
function serverParent(asRoot: boolean): string {
  const base = tmpdir();
  if (!asRoot) return base;
  for (let dir = base; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return '/tmp';
    if (dirname(dir) === dir) return base;
  }
}

/** Servers still running: stopped and removed if the process exits without `stop` (a failed or interrupted test). */
const running = new Set<() => void>();
process.once('exit', () => {
  for (const stop of running) stop();
});

export async function startPostgres(): Promise<PostgresServer> {
  if (!POSTGRES_BIN) throw new Error(POSTGRES_MISSING);
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(serverParent(asRoot), 'gateway-pg-'));
  const data = join(dir, 'data');
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(POSTGRES_BIN!, tool), ...args]] : [join(POSTGRES_BIN!, tool), args];
    const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${tool} failed (${r.status}): ${r.stderr || r.stdout}${existsSync(join(dir, 'log')) ? `\n${readFileSync(join(dir, 'log'), 'utf8')}` : ''}`);
  };
  try {
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(dir, uid, gid);
    }
    // --no-sync only skips flushing the freshly made cluster; the server runs with its defaults (fsync on).
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--no-locale']);
    let started = false;
    for (let attempt = 0; attempt < 3 && !started; attempt++) {
      const port = await freePort();
      const start = () =>
        run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`, 'start']);
      try {
        start();
        started = true;
        const kill = () => {
          running.delete(kill);
          try {
            run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        };
        running.add(kill);
        const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
        const query = async <T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []) => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            return (await client.query<T>(sql, params)).rows;
          } finally {
            await client.end();
          }
        };
        return {
          async createDatabase(name = `gateway_test_${process.pid}_${++databases}`) {
            await query(admin, `CREATE DATABASE ${name}`);
            return `postgres://postgres@127.0.0.1:${port}/${name}`;
          },
          query,
          async pause(mode: 'fast' | 'immediate' = 'fast') {
            run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
          },
          async resume() {
            start();
          },
          async stop() {
            kill();
          },
        };
      } catch (err) {
        if (attempt === 2) throw err; // else: the port was taken meanwhile; another one
      }
    }
    throw new Error('unreachable');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
