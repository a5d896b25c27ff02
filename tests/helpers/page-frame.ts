/** Checks shared by the tests of the pages made outside Astro (src/site/render/): the page frame around them. */
import { expect } from 'vitest';
import { pageEnd, pageStart, type PageMeta, type SiteFrame } from '../../src/site/render/page-frame.ts';

/** Expects `html` to be a whole document: the page frame for `meta` (page-frame.ts) around its main content. */
export function expectInPageFrame(html: string, frame: SiteFrame, meta: PageMeta): void {
  expect(html.startsWith(pageStart(frame, meta)), 'the page frame for its title, description, path and section').toBe(true);
  expect(html.endsWith(pageEnd(frame)), "the page frame's end").toBe(true);
}
