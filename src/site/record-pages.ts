/**
 * The record pages, /records/<id>/, rendered on worker threads while Astro builds the rest of the site.
 *
 * Why outside Astro: a record page is most of the site (10,000 of 11,300 pages at 10,000 records), and Astro renders
 * pages one at a time on one thread, at about 1 ms of its own per page even for a page that is one prepared string.
 * The record page is a pure function of the record and a few relations (src/site/render/record-document.ts, also
 * used by `astro dev`), so the build renders these pages on the machine's other cores from the moment the archive is
 * validated, into a staging folder, and moves them into the output when Astro is done (Astro empties the output
 * folder after the build starts, so they cannot be written there directly).
 *
 * A failure of the pool costs time, never pages: whatever the workers did not write is rendered on the main thread.
 * Threads: RECORD_PAGE_THREADS, else one per core, at most 4. Piscina, a well-kept worker-thread pool, runs them.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import Piscina from 'piscina';
import { newestFirst } from '../core/publish/records.ts';
import { relations, summarizeRecord, type ArchiveEntry, type RecordSummary } from './archive-model.ts';
import type { ArchiveLogger } from './archive-source.ts';
import type { RecordPageJob } from './render/record-document.ts';
import renderRecordPages, { type RecordPageBatch } from './record-pages-worker.ts';

/** Pages per task: large enough that messaging is cheap, small enough to spread the work evenly. */
const BATCH = 64;

/** Record pages live at /records/<id>/ (the raw files beside them at /records/<id>.json, src/site/raw-records.ts). */
export const RECORD_PAGES_DIR = 'records';

/** Worker threads: RECORD_PAGE_THREADS when set (0: render on the main thread), else one per core, at most 4. */
export function recordPageThreads(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): number {
  const configured = env.RECORD_PAGE_THREADS;
  if (configured !== undefined && configured.trim() !== '') {
    const n = Number(configured);
    if (!Number.isInteger(n) || n < 0 || n > 64) {
      throw new Error(`RECORD_PAGE_THREADS must be a whole number from 0 to 64 (got ${JSON.stringify(configured)})`);
    }
    return n;
  }
  return Math.max(1, Math.min(4, cores));
}

/**
 * What each record page needs besides its record: the report it links to, the records linking to it, and what it
 * supersedes or is superseded by. Newest first (the order of the browse pages). Only the few records named in a
 * relation are summarised here; each page summarises its own record where it is rendered.
 */
export function recordPageJobs(records: readonly ArchiveEntry[]): RecordPageJob[] {
  const entries = [...records].sort(newestFirst);
  const rel = relations(entries);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const summaries = new Map<string, RecordSummary>();
  const summary = (id: string) => {
    let s = summaries.get(id);
    if (s === undefined) summaries.set(id, (s = summarizeRecord(byId.get(id)!)));
    return s;
  };
  const none: readonly string[] = [];
  return entries.map((entry) => {
    if (entry.id === '.' || entry.id === '..') throw new Error(`record ${entry.path}: "${entry.id}" cannot name a page folder`);
    const linkedReport = rel.linkedReport.get(entry.id);
    return {
      entry,
      linkedReport: linkedReport === undefined ? undefined : summary(linkedReport),
      linkedFrom: (rel.linkedFrom.get(entry.id) ?? none).map(summary),
      supersededBy: rel.supersededBy.get(entry.id) ?? none,
      supersedes: rel.supersedes.get(entry.id) ?? none,
    };
  });
}

export interface RecordPagesRun {
  /** Waits for every page, renders any the workers did not, moves them to <outDir>/records/; the number of pages. */
  finish(outDir: string): Promise<number>;
  /** Stops the workers and removes the staging folder (a build that ends without finish). */
  stop(): Promise<void>;
}

export interface RecordPagesOptions {
  frame: RecordPageBatch['frame'];
  /** The staging folder (emptied first); on the output's file system, so that finishing is a rename per page. */
  staging: string;
  logger: ArchiveLogger;
  threads?: number;
}

/** Starts rendering every record's page into `staging`. */
export function startRecordPages(records: readonly ArchiveEntry[], { frame, staging, logger, threads = recordPageThreads() }: RecordPagesOptions): RecordPagesRun {
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const jobs = recordPageJobs(records);
  const done = new Uint8Array(jobs.length);
  const pool =
    threads === 0 || jobs.length === 0
      ? undefined
      : new Piscina<RecordPageBatch, number>({ filename: new URL('./record-pages-worker.ts', import.meta.url).href, minThreads: threads, maxThreads: threads });
  let failure: unknown;
  const tasks: Promise<void>[] = [];
  for (let i = 0; pool && i < jobs.length; i += BATCH) {
    const start = i;
    const batch = jobs.slice(start, start + BATCH);
    tasks.push(
      pool.run({ frame, dir: staging, jobs: batch }).then(
        () => {
          done.fill(1, start, start + batch.length);
        },
        (err: unknown) => {
          failure ??= err;
        },
      ),
    );
  }
  const cleanUp = async () => {
    await pool?.destroy();
    rmSync(staging, { recursive: true, force: true });
  };
  return {
    async finish(outDir) {
      await Promise.all(tasks);
      await pool?.destroy();
      const missing = jobs.filter((_, i) => done[i] === 0);
      if (failure !== undefined) {
        logger.warn(`Rendering record pages on worker threads failed (${failure instanceof Error ? failure.message : String(failure)}); rendering ${missing.length} on the main thread`);
      }
      if (missing.length > 0) renderRecordPages({ frame, dir: staging, jobs: missing });
      const target = join(outDir, RECORD_PAGES_DIR);
      mkdirSync(target, { recursive: true });
      for (const id of readdirSync(staging)) {
        const to = join(target, id);
        if (existsSync(to)) throw new Error(`the record page ${RECORD_PAGES_DIR}/${id}/ would replace a page Astro built there`);
        moveFolder(join(staging, id), to);
      }
      await cleanUp();
      return jobs.length;
    },
    stop: cleanUp,
  };
}

/** Renames a folder; across file systems (a staging folder elsewhere than the output) copies it instead. */
function moveFolder(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    cpSync(from, to, { recursive: true });
  }
}
