/**
 * The HTML of a record's echo text, for its page: the core's untrusted-Markdown renderer with the page's options,
 * taken ready-made from the build's pre-rendering pool (src/site/echo-prerender.ts) when it has it, rendered here
 * when it has not. The pool runs the same function with the same options on the same text, so the page is the same
 * either way; the pool only saves time.
 */
import { renderUntrustedMarkdown } from '../core/markdown/render.ts';
import { ECHO_MARKDOWN_OPTIONS } from './echo-markdown-options.ts';

/** One pre-rendered echo: the text it was rendered from, and the HTML. */
export interface PrerenderedEcho {
  source: string;
  html: string;
}

// The pool is started by the integration and read by the bundled pages: two copies of this module in one process,
// so the results are shared through a process-wide slot (as the validated archive is, src/site/archive-source.ts).
const SLOT = Symbol.for('echo-archive.prerendered-echo-html');
type Slot = { [SLOT]?: Map<string, PrerenderedEcho> | undefined };

/** Where the pool puts its results, by record id (undefined: no pool, every page renders its own echo). */
export function setPrerenderedEchoes(results: Map<string, PrerenderedEcho> | undefined): void {
  (globalThis as Slot)[SLOT] = results;
}

/** The sanitised HTML of the echo `echo` of record `id`. */
export function echoHtml(id: string, echo: string): string {
  const results = (globalThis as Slot)[SLOT];
  const ready = results?.get(id);
  if (ready !== undefined) {
    // Each record page is built once: the result is not needed again, and dropping it keeps memory flat.
    results!.delete(id);
    if (ready.source === echo) return ready.html;
  }
  return renderUntrustedMarkdown(echo, ECHO_MARKDOWN_OPTIONS);
}
