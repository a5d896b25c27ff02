/**
 * The real gateway entry point (src/gateway/main.ts) as a child process: the project's Node 22
 * (`node_modules/.bin/node`, type stripping) on 127.0.0.1 with PORT=0, its URL read from the "listening on" line it
 * prints. For tests that kill the process (crash safety) rather than close a server in-process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROJECT_NODE = join(REPO_ROOT, 'node_modules', '.bin', 'node');
export const GATEWAY_MAIN = join(REPO_ROOT, 'src', 'gateway', 'main.ts');

export interface ChildGateway {
  /** `http://127.0.0.1:PORT`; undefined until the gateway has printed its listening line. */
  url: string | undefined;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves with the URL once the gateway listens; rejects if it exits first or does not start in time. */
  ready: Promise<string>;
  /** Resolves when the process has exited (code, signal). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
}

export function spawnGateway(dataDir: string, env: Record<string, string> = {}, startTimeoutMs = 15_000): ChildGateway {
  const node = existsSync(PROJECT_NODE) ? PROJECT_NODE : process.execPath;
  const child = spawn(node, ['--disable-warning=ExperimentalWarning', GATEWAY_MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_RATE_LIMIT: 'off',
      SITE_URL: 'http://127.0.0.1:1',
      GATEWAY_URL: 'http://127.0.0.1:2',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const handle: ChildGateway = {
    url: undefined,
    child,
    output: () => out,
    exited,
    ready: new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the gateway did not start within ${startTimeoutMs} ms:\n${out}`)), startTimeoutMs);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
        if (m && !handle.url) {
          clearTimeout(timer);
          handle.url = m[1]!;
          resolve(m[1]!);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`the gateway exited (code ${code}, signal ${signal}) before listening:\n${out}`));
      });
    }),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  // A kill before the listening line rejects `ready`; callers that do not wait for it must not see an unhandled rejection.
  handle.ready.catch(() => undefined);
  return handle;
}
