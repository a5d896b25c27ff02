/**
 * Worker of the record-page pool (src/site/build/3-record-pages.ts): for each record of a batch, renders its page to
 * <dir>/<id>/index.html and places its raw file at <dir>/<id>.json (src/site/build/4-raw-records.ts). Synchronous file
 * calls: this thread has nothing else to do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publishRawRecord, type RawRecordFile } from './4-raw-records.ts';
import { echoHtml } from '../render/echo-html.ts';
import { frameOf, type FrameSettings } from '../render/page-frame.ts';
import { recordDocument } from '../render/record-document.ts';
import type { RecordPageInput } from '../render/record-page.ts';

/** One record's page and raw file: what the page is made from, and where the validated file is. */
export interface RecordJob {
  page: RecordPageInput;
  raw: RawRecordFile;
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
    const folder = join(dir, page.entry.id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.html'), recordDocument(page, siteFrame, echoHtml));
    result.pages++;
    result[publishRawRecord(raw, dir)]++;
  }
  return result;
}
