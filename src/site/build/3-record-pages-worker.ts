/**
 * Worker of the record-page pool (src/site/build/3-record-pages.ts): for each record of a batch, places its raw file at
 * <dir>/<id>.json (src/site/build/4-raw-records.ts) and renders its page, from those very bytes parsed, to
 * <dir>/<id>/index.html. The job carries no parsed record: the main thread does not keep every record's echo text
 * (src/site/build/2-read-archive.ts), and the raw-record step reads the file anyway. Synchronous file calls: this
 * thread has nothing else to do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsedRecord, publishRawRecord, readRawRecord, type RawRecordFile } from './4-raw-records.ts';
import { echoHtml } from '../render/echo-html.ts';
import { frameOf, type FrameSettings } from '../render/page-frame.ts';
import { recordDocument } from '../render/record-document.ts';
import type { RecordPageInput } from '../render/record-page.ts';

/** A record page's input without the record itself, which is read from the record's file. */
export type RecordPageJob = Omit<RecordPageInput, 'entry'> & { entry: Omit<RecordPageInput['entry'], 'record'> };

/** One record's page and raw file: what the page is made from besides the record, and where the validated file is. */
export interface RecordJob {
  page: RecordPageJob;
  raw: RawRecordFile;
}

/** The page's whole input: the job's, with the record parsed from the validated file's bytes. */
export function recordPageInput(page: RecordPageJob, bytes: Buffer): RecordPageInput {
  return { ...page, entry: { ...page.entry, record: parsedRecord(bytes) } };
}

/** A job's page input with its record read from the file, checked against the validated hash (astro dev, tests). */
export function readRecordPage({ page, raw }: RecordJob): RecordPageInput {
  return recordPageInput(page, readRawRecord(raw));
}

export interface RecordPageBatch {
  frame: FrameSettings;
  dir: string;
  jobs: readonly RecordJob[];
}

export interface RecordBatchResult {
  pages: number;
  linked: number;
  copied: number;
}

export default function renderRecordPages({ frame, dir, jobs }: RecordPageBatch): RecordBatchResult {
  const siteFrame = frameOf(frame);
  const result: RecordBatchResult = { pages: 0, linked: 0, copied: 0 };
  for (const { page, raw } of jobs) {
    const { how, bytes } = publishRawRecord(raw, dir);
    result[how]++;
    const folder = join(dir, page.entry.id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.html'), recordDocument(recordPageInput(page, bytes), siteFrame, echoHtml));
    result.pages++;
  }
  return result;
}
