/**
 * Worker of the echo pre-rendering pool (src/site/echo-prerender.ts): renders a batch of echo texts with the core's
 * untrusted-Markdown renderer, the same function and options a record page would use itself.
 */
import { renderUntrustedMarkdown } from '../core/markdown/render.ts';
import { ECHO_MARKDOWN_OPTIONS } from './echo-markdown-options.ts';

export default function renderBatch(texts: readonly string[]): string[] {
  return texts.map((text) => renderUntrustedMarkdown(text, ECHO_MARKDOWN_OPTIONS));
}
