/**
 * Pre-renders every record's echo text on the machine's other cores while Astro bundles and renders pages on one.
 *
 * Rendering and sanitising the echo Markdown is the largest single cost of a record page (about 1 ms of its 3 ms
 * in a CPU profile), and Astro renders pages on one thread. The integration starts this pool when
 * the build starts; it renders the echoes newest first, the order in which the record pages are built, and the
 * pages take the results through `echoHtml` (src/site/echo-html.ts), rendering any echo that is not ready yet
 * themselves. A failure of the pool costs time, never correctness: it is logged and the pages render everything.
 *
 * Threads: one fewer than the available cores, at most 3; ECHO_RENDER_THREADS sets another number (0: no pool).
 * Piscina, a well-kept worker-thread pool, runs the workers (no reason to hand-write queueing and thread life cycle).
 */
import { availableParallelism } from 'node:os';
import Piscina from 'piscina';
import { newestFirst, type PublishRecord } from '../core/publish/records.ts';
import { setPrerenderedEchoes, type PrerenderedEcho } from './echo-html.ts';
import type { ArchiveLogger } from './archive-source.ts';

/** Echoes per task: large enough that messaging is cheap, small enough that the first pages find theirs ready. */
const BATCH = 64;

export interface EchoPrerender {
  /** Resolves when every echo is rendered (or the pool failed or stopped); never rejects. */
  settled: Promise<void>;
  /** Stops the workers and forgets the results (call when the pages are built). */
  stop(): Promise<void>;
}

/** Worker threads to use: ECHO_RENDER_THREADS when set, else one fewer than the cores, at most 3. */
export function echoRenderThreads(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  const configured = env.ECHO_RENDER_THREADS;
  if (configured !== undefined && configured.trim() !== '') {
    const n = Number(configured);
    if (!Number.isInteger(n) || n < 0 || n > 64) {
      throw new Error(`ECHO_RENDER_THREADS must be a whole number from 0 to 64 (got ${JSON.stringify(configured)})`);
    }
    return n;
  }
  return Math.max(0, Math.min(3, cores - 1));
}

/** Starts rendering the echoes of `records` in worker threads; results appear for `echoHtml` as they are done. */
export function startEchoPrerender(records: readonly PublishRecord[], logger: ArchiveLogger, threads = echoRenderThreads()): EchoPrerender {
  const withEcho = records.filter((r) => typeof r.record.echo === 'string').sort(newestFirst);
  if (threads === 0 || withEcho.length === 0) return { settled: Promise.resolve(), stop: async () => {} };

  const results = new Map<string, PrerenderedEcho>();
  setPrerenderedEchoes(results);
  const pool = new Piscina<readonly string[], string[]>({
    filename: new URL('./echo-html-worker.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
  });
  let stopped = false;
  let failed = false;
  const tasks: Promise<void>[] = [];
  for (let i = 0; i < withEcho.length; i += BATCH) {
    const batch = withEcho.slice(i, i + BATCH);
    const sources = batch.map((r) => r.record.echo as string);
    const task = pool.run(sources).then(
      (htmls) => {
        if (stopped) return;
        batch.forEach((r, j) => results.set(r.id, { source: sources[j]!, html: htmls[j]! }));
      },
      (err: unknown) => {
        if (stopped || failed) return;
        failed = true;
        logger.warn(`Pre-rendering echo texts failed; record pages render their own (${err instanceof Error ? err.message : String(err)})`);
      },
    );
    tasks.push(task);
  }
  return {
    settled: Promise.all(tasks).then(() => undefined),
    async stop() {
      stopped = true;
      setPrerenderedEchoes(undefined);
      await pool.destroy();
    },
  };
}
