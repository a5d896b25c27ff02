/**
 * A record page's echo text as HTML: the core's untrusted-Markdown renderer (src/core/markdown/render.ts), with the
 * echo's own headings starting at h4 (the page has h1, the section h2, each part h3). The one way the build's worker
 * threads, `astro dev` and the tests render it.
 */
import { renderUntrustedMarkdown } from '../../core/markdown/render.ts';

export function echoHtml(echo: string): string {
  return renderUntrustedMarkdown(echo, { headingOffset: 3 });
}
