/**
 * The site build under faults (issue 28, items 2 and 3), the real `npm run build` (scripts/build.ts: builder bundle,
 * astro build, search index, each a child process) into an output folder of the test's own:
 *   - SIGKILLed (its whole process group) at seeded random moments of a build: the output folder is afterwards a
 *     whole build or absent, never part of one; the next build, which takes the folder the killed one was updating
 *     in place (scripts/build.ts), is byte-identical to a clean one and leaves no staging folder behind;
 *   - on a tmpfs that fills mid-build: it fails naming ENOSPC in plain words, the previous site in the output folder
 *     is left whole, no staging folder is left; once space is freed the next build completes, byte-identical.
 * FAULT_BUILD_TRIALS sets the kill trials (default 3; .ci/run: 50), FAULT_SEED replays a run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { difference, mountTmpfs, NODE, prng, REPO_ROOT, SEED, snapshot, TMPFS_MISSING } from './helpers.ts';

const TRIALS = Number(process.env.FAULT_BUILD_TRIALS ?? 3);
const TAG = `build faults seed=${SEED} (replay: FAULT_SEED=${SEED} FAULT_BUILD_TRIALS=${TRIALS})`;
const work = mkdtempSync(join(tmpdir(), 'fault-build-'));
const cache = join(work, 'cache');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ENV = { ...process.env, ECHO_ARCHIVE_CACHE_DIR: cache, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' };
let reference: Map<string, Buffer>;
let cleanMs = 0;

function build(out: string): { code: number | null; output: string; ms: number } {
  const t0 = performance.now();
  const r = spawnSync(NODE, ['scripts/build.ts', '--out-dir', out], { cwd: REPO_ROOT, env: ENV, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, output: `${r.stdout}${r.stderr}`, ms: performance.now() - t0 };
}

/** Starts a build in a process group of its own and SIGKILLs the whole group after `afterMs`; whether it finished first. */
async function killedBuild(out: string, afterMs: number): Promise<boolean> {
  const child = spawn(NODE, ['scripts/build.ts', '--out-dir', out], { cwd: REPO_ROOT, env: ENV, stdio: 'ignore', detached: true });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const finished = await Promise.race([exited.then(() => true), sleep(afterMs).then(() => false)]);
  if (!finished) {
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    // Its children are in the group too: wait until none is left.
    for (let i = 0; i < 50 && spawnSync('pgrep', ['-g', String(child.pid)]).status === 0; i++) await sleep(100);
  }
  return finished;
}

const leftovers = (out: string) => readdirSync(dirname(out)).filter((n) => n.includes('.building-') || n.includes('.previous-'));

beforeAll(() => {
  const first = build(join(work, 'reference'));
  expect(first.code, first.output).toBe(0);
  reference = snapshot(join(work, 'reference'));
  // Timed with the cache warm, as the trials run.
  const again = build(join(work, 'reference-2'));
  expect(again.code, again.output).toBe(0);
  expect(difference(reference, snapshot(join(work, 'reference-2')))).toBeUndefined();
  cleanMs = again.ms;
}, 300_000);

describe('npm run build killed mid-build', () => {
  it(`${TRIALS} seeded SIGKILLs: the output folder is whole or absent; the next build is byte-identical to a clean one`, async () => {
    const rand = prng(SEED);
    const out = join(work, 'site', 'dist');
    const seen = { killed: 0, finishedFirst: 0, outputAbsent: 0, outputWholePrevious: 0, repairedKilledFolder: 0 };
    for (let t = 0; t < TRIALS; t++) {
      const afterMs = Math.round(50 + rand() * cleanMs);
      const where = `${TAG} trial ${t} kill after ${afterMs} ms of ~${Math.round(cleanMs)}`;
      if (await killedBuild(out, afterMs)) seen.finishedFirst++;
      else seen.killed++;
      if (!existsSync(out)) seen.outputAbsent++;
      else {
        expect(difference(reference, snapshot(out)), `${where}: the output folder after the kill`).toBeUndefined();
        seen.outputWholePrevious++;
      }
      const next = build(out);
      expect(next.code, `${where}: ${next.output}`).toBe(0);
      if (next.output.includes('repairing the folder a build that was killed left')) seen.repairedKilledFolder++;
      expect(difference(reference, snapshot(out)), where).toBeUndefined();
      expect(leftovers(out), where).toEqual([]);
    }
    console.log(`[build-kill] ${JSON.stringify({ seed: SEED, trials: TRIALS, clean_build_ms: Math.round(cleanMs), ...seen, survived: TRIALS })}`);
  }, 1_800_000);
});

describe('npm run build on a disk that fills mid-build', () => {
  // Room for two whole sites (the previous one and the build's staging folder, side by side until the swap) of the
  // project's records: about 6.3 MB each in 4 KB blocks (the search index's small files take a block each).
  const fs = mountTmpfs(32 * 1024 * 1024);
  if (!fs) console.warn(TMPFS_MISSING);
  afterAll(() => fs?.unmount());

  it.skipIf(!fs)('fails naming ENOSPC, leaves the previous site whole and no staging folder; completes once space is freed', () => {
    const out = join(fs!.dir, 'dist');
    const first = build(out);
    expect(first.code, first.output).toBe(0);
    fs!.fill(1024 * 1024);
    const full = build(out);
    expect(full.code, full.output).not.toBe(0);
    expect(full.output).toMatch(/the disk is full \(no space left on device, ENOSPC\)/);
    expect(difference(reference, snapshot(out))).toBeUndefined();
    expect(leftovers(out)).toEqual([]);
    fs!.free();
    const again = build(out);
    expect(again.code, again.output).toBe(0);
    expect(difference(reference, snapshot(out))).toBeUndefined();
    expect(leftovers(out).filter((n) => n !== '.filler')).toEqual([]);
    console.log(`[build-disk-full] ${JSON.stringify({ failed_enospc: 1, previous_site_whole: true, recovered: 1 })}`);
  }, 300_000);
});
