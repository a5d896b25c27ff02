/**
 * The bundled builder as a child process: each test file bundles it once into a temporary directory (with a site
 * and gateway configuration of its choosing) and runs it on the project's Node, in temporary working directories.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { buildBuilder } from '../../src/builder/bundle.ts';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface BundledBuilder {
  /** Path of the bundle. */
  file: () => string;
  /** A fresh temporary working directory, removed after the test file. */
  tempDir: () => string;
  run: (args: readonly string[], options?: { cwd?: string; node?: string; env?: Record<string, string> }) => Promise<RunResult>;
}

/** Registers the bundling (beforeAll) and the cleanup (afterAll) for the calling test file. */
export function bundledBuilder(config: { siteUrl: string; gatewayUrl: string }): BundledBuilder {
  const dirs: string[] = [];
  let bundle = '';
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'record-chain-builder-test-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    bundle = await buildBuilder({ outfile: join(tempDir(), 'record-chain-builder.mjs'), env: { SITE_URL: config.siteUrl, GATEWAY_URL: config.gatewayUrl } });
  }, 60_000);
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const run: BundledBuilder['run'] = (args, { cwd, node = process.execPath, env = {} } = {}) =>
    new Promise((done, fail) => {
      const base: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
      delete base.FORCE_COLOR;
      execFile(node, [bundle, ...args], { cwd: cwd ?? tempDir(), env: { ...base, ...env } as NodeJS.ProcessEnv, timeout: 30_000 }, (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') return fail(err);
        done({ code: err ? (err.code as number) : 0, stdout, stderr });
      });
    });
  return { file: () => bundle, tempDir, run };
}

/** Options for a valid propagation record (plus key dir and output). */
export function propagationArgs(keyDir: string, out: string, summary = 'Pointed readers to the verification paths; the archive is non-authoritative.'): string[] {
  return [
    'propagation',
    '--key-dir', keyDir,
    '--agent-name', 'test-model',
    '--agent-provider', 'test-provider',
    '--action', 'point_to_verification',
    '--url', 'https://forum.example/t/123',
    '--performed-at', '2026-11-20T10:00:00Z',
    '--summary', summary,
    '--checked', 'the public index lists the records I cited',
    '--not-checked', 'the physical artifacts',
    '--out', out,
  ];
}
