/**
 * A record's whole page as one HTML document: the record page (record-page.ts) inside the site's page frame
 * (page-frame.ts). The build's worker threads (src/site/build/3-record-pages.ts) and `astro dev` call this one function.
 */
import { pageHtml, type SiteFrame } from './page-frame.ts';
import { renderRecordPage, type RecordPageInput } from './record-page.ts';

export function recordDocument(job: RecordPageInput, frame: SiteFrame, echoHtml: (echo: string) => string): string {
  const page = renderRecordPage(job, { paths: frame.paths, site: frame.site, echoHtml });
  return pageHtml(frame, { title: page.title, description: page.description, pathname: frame.paths.recordPage(job.entry.id) }, page.main);
}
