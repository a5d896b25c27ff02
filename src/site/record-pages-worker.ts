/**
 * Worker of the record-page pool (src/site/record-pages.ts): renders a batch of record pages and writes each to
 * <dir>/<id>/index.html. The echo Markdown is rendered here by the core's untrusted-Markdown renderer.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderUntrustedMarkdown } from '../core/markdown/render.ts';
import { ECHO_MARKDOWN_OPTIONS } from './echo-markdown-options.ts';
import { sitePaths } from './paths.ts';
import { recordDocument, type RecordPageJob } from './render/record-document.ts';

export interface RecordPageBatch {
  /** The page frame's settings (SiteFrame without its functions: they do not cross threads). */
  frame: { base: string; site: string | undefined; stylesheet: string };
  dir: string;
  jobs: readonly RecordPageJob[];
}

const echoHtml = (echo: string) => renderUntrustedMarkdown(echo, ECHO_MARKDOWN_OPTIONS);

export default function renderRecordPages({ frame, dir, jobs }: RecordPageBatch): number {
  const siteFrame = { paths: sitePaths(frame.base), site: frame.site, stylesheet: frame.stylesheet };
  for (const job of jobs) {
    const folder = join(dir, job.entry.id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'index.html'), recordDocument(job, siteFrame, echoHtml));
  }
  return jobs.length;
}
