/**
 * A step of a benchmark as a fresh process on the project's Node (22): its wall time and the end of its output. A
 * step that fails ends the benchmark with that output, named after the benchmark.
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NODE = join(REPO, 'node_modules/.bin/node');

export function timedNode(bench: string, args: string[], env: Record<string, string> = {}): Promise<{ ms: number; output: string }> {
  return new Promise((done) => {
    const start = performance.now();
    const child = spawn(NODE, args, { cwd: REPO, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out = (out + b.toString()).slice(-10_000)));
    child.stderr.on('data', (b: Buffer) => (out = (out + b.toString()).slice(-10_000)));
    child.on('close', (code) => {
      if (code !== 0) {
        console.error(`${bench}: ${args.join(' ')} failed (exit ${code}):\n${out}`);
        process.exit(1);
      }
      done({ ms: performance.now() - start, output: out });
    });
  });
}
