/**
 * Shared by the fault tests (docs/faults.md): the project's Node running a command with the kill preload
 * (kill-at-fs-op.ts), a seeded PRNG, the number of trials (FAULT_TRIALS, default 8 for `npm test`; `.ci/run`
 * runs 50), and a size-limited tmpfs (`mount -t tmpfs -o size=…`, root only) for the disk-full tests.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const NODE = existsSync(join(REPO_ROOT, 'node_modules/.bin/node')) ? join(REPO_ROOT, 'node_modules/.bin/node') : process.execPath;
export const KILL_PRELOAD = fileURLToPath(new URL('./kill-at-fs-op.ts', import.meta.url));
export const SEED = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
export const TRIALS = Number(process.env.FAULT_TRIALS ?? 8);

export { prng } from '../../scripts/lib/synthetic-archive.ts';

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs `node ARGS` in the repository; with `killAt`, SIGKILLed at that file-changing call (kill-at-fs-op.ts). */
export function runNode(args: string[], options: { env?: Record<string, string>; killAt?: number; countFile?: string; seed?: number; timeoutMs?: number } = {}): Run {
  const preload = options.killAt !== undefined || options.countFile !== undefined;
  const r: SpawnSyncReturns<string> = spawnSync(NODE, ['--disable-warning=ExperimentalWarning', ...(preload ? ['--import', KILL_PRELOAD] : []), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
    env: {
      ...process.env,
      ...options.env,
      ...(options.killAt !== undefined ? { FAULT_KILL_AT: String(options.killAt), FAULT_SEED: String(options.seed ?? 1) } : {}),
      ...(options.countFile ? { FAULT_COUNT_FILE: options.countFile } : {}),
    },
  });
  return { code: r.status, signal: r.signal, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** How many file-changing calls `node ARGS` makes on a clean run (the range kill points are drawn from). */
export function countOps(args: string[], env: Record<string, string> = {}): number {
  const dir = mkdtempSync(join(tmpdir(), 'fault-count-'));
  try {
    const file = join(dir, 'count');
    const r = runNode(args, { env, countFile: file });
    if (r.code !== 0) throw new Error(`the clean run failed (${r.code}):\n${r.output}`);
    return Number(readFileSync(file, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file under `dir` (relative path → bytes), for byte-for-byte comparison; `skip` filters relative paths. */
export function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!existsSync(dir)) return out;
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(dir, rel);
    if (skip(rel) || !statSync(path).isFile()) continue;
    out.set(relative(dir, path), readFileSync(path));
  }
  return out;
}

/** The first difference between two snapshots, or undefined when they are byte-identical. */
export function difference(a: Map<string, Buffer>, b: Map<string, Buffer>): string | undefined {
  for (const [k, v] of a) if (!b.has(k)) return `${k} missing`;
  for (const [k, v] of b) {
    if (!a.has(k)) return `${k} extra`;
    if (!a.get(k)!.equals(v)) return `${k} differs`;
  }
  return undefined;
}

export interface Tmpfs {
  dir: string;
  /** Fills the filesystem until `leaveBytes` (about: tmpfs counts pages) are free. */
  fill(leaveBytes: number): void;
  /** Frees what `fill` took. */
  free(): void;
  unmount(): void;
}

/**
 * A tmpfs of `sizeBytes` mounted on a new temporary folder: root only, and only where the sandbox allows mounting.
 * Undefined (the caller skips with a notice) otherwise.
 */
export function mountTmpfs(sizeBytes: number): Tmpfs | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'fault-tmpfs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes},mode=0777`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = join(dir, '.filler');
  return {
    dir,
    fill(leaveBytes) {
      rmSync(filler, { force: true });
      const free = () => {
        const s = spawnSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' });
        return Number(s.stdout.trim().split('\n').pop());
      };
      const size = Math.max(0, free() - leaveBytes);
      writeFileSync(filler, Buffer.alloc(size, 1));
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const TMPFS_MISSING = 'disk-full tests SKIPPED: cannot mount a size-limited tmpfs here (needs root and a sandbox that allows mount -t tmpfs)';
