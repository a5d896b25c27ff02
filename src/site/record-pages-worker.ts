/**
 * Worker of the record-page pool (src/site/record-pages.ts): for each record of a batch, renders its page to
 * <dir>/<id>/index.html and places its raw file at <dir>/<id>.json (src/site/raw-records.ts). The echo Markdown is
 * rendered here by the core's untrusted-Markdown renderer. Synchronous file calls: this thread has nothing else to do.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderUntrustedMarkdown } from '../core/markdown/render.ts';
import { ECHO_MARKDOWN_OPTIONS } from './echo-markdown-options.ts';
import { sitePaths } from './paths.ts';
import { publishRawRecord, type RawRecordFile } from './raw-records.ts';
import { recordDocument, type RecordPageJob } from './render/record-document.ts';

/** One record's page and raw file: what the page is made from, and where the validated file is. */
export interface RecordJob {
  page: RecordPageJob;
  raw: RawRecordFile;
}

export interface RecordPageBatch {
  /** The page frame's settings (SiteFrame without its functions: they do not cross threads). */
  frame: { base: string; site: string | undefined; stylesheet: string };
  dir: string;
  jobs: readonly RecordJob[];
}

export interface RecordBatchResult {
  pages: number;
  linked: number;
  copied: number;
}

const echoHtml = (echo: string) => renderUntrustedMarkdown(echo, ECHO_MARKDOWN_OPTIONS);

export default function renderRecordPages({ frame, dir, jobs }: RecordPageBatch): RecordBatchResult {
  const siteFrame = { paths: sitePaths(frame.base), site: frame.site, stylesheet: frame.stylesheet };
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
