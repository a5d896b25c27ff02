/**
 * `npm run log:append` under faults (issue 28, items 2 and 3), the real command (src/cli/log.ts) in a child process:
 *   - killed (SIGKILL) at seeded random file-changing calls, writes torn at the kill (tests/faults/kill-at-fs-op.ts):
 *     afterwards the log either reads as a whole committed log or is refused with a named problem (never taken for
 *     whole when it is not), and the next append (which cuts an uncommitted tail) leaves .tlog/ byte-identical to a
 *     clean run's, and log:check passes;
 *   - on a tmpfs that fills mid-way: it fails naming ENOSPC in plain words, the committed log stays readable, and
 *     once space is freed the next append completes, byte-identical to a clean run.
 * FAULT_TRIALS sets the trials (default 8; .ci/run: 50), FAULT_SEED replays a run.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogStateError } from '../../src/core/log/archive-log.ts';
import { readLogState } from '../../src/core/log/log-files.ts';
import { countOps, difference, mountTmpfs, prng, REPO_ROOT, runNode, SEED, snapshot, TMPFS_MISSING, TRIALS } from './helpers.ts';

const TAG = `log:append faults seed=${SEED} (replay: FAULT_SEED=${SEED} FAULT_TRIALS=${TRIALS})`;
const work = mkdtempSync(join(tmpdir(), 'fault-log-'));
const template = join(work, 'template');
let reference: Map<string, Buffer>;
let ops = 0;
afterAll(() => rmSync(work, { recursive: true, force: true }));

const NEW_RECORDS = 40;
const tlogSnapshot = (root: string) => snapshot(join(root, '.tlog'));

/** The repository's archive in git, then 40 new records and a new version of a logged one (earlier bytes kept). */
function makeTemplate(): void {
  cpSync(join(REPO_ROOT, 'records'), template, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-C', template, ...args], { stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'archive');
  const source = readFileSync(join(template, '2026/echo-2026-02-03-000003.json'));
  for (let i = 0; i < NEW_RECORDS; i++) writeFileSync(join(template, `2026/echo-2026-11-23-${String(100 + i).padStart(6, '0')}.json`), source);
  writeFileSync(join(template, '2026/echo-2026-01-14-000001.json'), readFileSync(join(template, '2026/echo-2026-01-14-000001.json'), 'utf8') + '\n');
}

const append = (root: string, extra: { killAt?: number; seed?: number } = {}) => runNode(['src/cli/log.ts', 'append', '--root', root], extra);

beforeAll(() => {
  makeTemplate();
  const clean = join(work, 'clean');
  cpSync(template, clean, { recursive: true });
  const r = append(clean);
  expect(r.code, r.output).toBe(0);
  reference = tlogSnapshot(clean);
  expect([...reference.keys()].some((k) => k.startsWith('versions/'))).toBe(true);
  ops = countOps(['src/cli/log.ts', 'append', '--root', (cpSync(template, join(work, 'count'), { recursive: true }), join(work, 'count'))]);
}, 60_000);

describe('npm run log:append killed mid-write', () => {
  it(`${TRIALS} seeded SIGKILLs at random file-changing calls: the log is whole or refused by name; the next append repairs it, byte-identical`, () => {
    const rand = prng(SEED);
    const seen = { killed: 0, refusedAfterKill: 0, repaired: 0 };
    for (let t = 0; t < TRIALS; t++) {
      const killAt = 1 + Math.floor(rand() * ops);
      const root = join(work, `trial-${t}`);
      cpSync(template, root, { recursive: true });
      const killed = append(root, { killAt, seed: SEED + t });
      const where = `${TAG} trial ${t} killAt ${killAt}/${ops}`;
      expect(killed.signal, `${where}: ${killed.output}`).toBe('SIGKILL');
      seen.killed++;
      // A reader sees a whole committed log, or refuses it naming the problem.
      try {
        readLogState(root);
      } catch (err) {
        expect(err, where).toBeInstanceOf(LogStateError);
        seen.refusedAfterKill++;
      }
      const next = append(root);
      expect(next.code, `${where}: ${next.output}`).toBe(0);
      if (next.output.includes('Repaired the log')) seen.repaired++;
      expect(difference(reference, tlogSnapshot(root)), where).toBeUndefined();
      expect(runNode(['src/cli/log.ts', 'check', '--root', root]).code, where).toBe(0);
      rmSync(root, { recursive: true, force: true });
    }
    console.log(`[log-append-kill] ${JSON.stringify({ seed: SEED, trials: TRIALS, file_changing_calls: ops, ...seen, survived: TRIALS })}`);
  }, 600_000);
});

describe('npm run log:append on a disk that fills mid-way', () => {
  const fs = mountTmpfs(4 * 1024 * 1024);
  if (!fs) console.warn(TMPFS_MISSING);
  afterAll(() => fs?.unmount());

  it.skipIf(!fs)('fails naming ENOSPC, leaves the committed log readable, and completes once space is freed', () => {
    const results: string[] = [];
    let failures = 0;
    // Free space from about nothing to more than the append needs: some runs fail at the versions, some at the
    // entries, some at the tree head.
    for (const leave of [0, 2048, 4096, 8192, 12288, 16384]) {
      const root = join(fs!.dir, 'records');
      rmSync(root, { recursive: true, force: true });
      fs!.free();
      cpSync(template, root, { recursive: true });
      fs!.fill(leave);
      const r = append(root);
      if (r.code !== 0) {
        failures++;
        expect(r.code, r.output).toBe(1);
        expect(r.output).toMatch(/no space left on device \(ENOSPC\)/);
        expect(r.output).not.toMatch(/\n\s+at /); // a message, not a stack trace
        try {
          readLogState(root);
        } catch (err) {
          expect(err).toBeInstanceOf(LogStateError);
        }
      }
      results.push(`${leave}:${r.code}`);
      fs!.free();
      const again = append(root);
      expect(again.code, again.output).toBe(0);
      expect(difference(reference, tlogSnapshot(root)), `free ${leave}`).toBeUndefined();
    }
    expect(failures, results.join(' ')).toBeGreaterThan(0);
    console.log(`[log-append-disk-full] ${JSON.stringify({ runs: results.length, failed_enospc: failures, recovered: results.length })}`);
  }, 120_000);
});
