/**
 * Untrusted Markdown (a record's echo text) → a sanitised HTML fragment. Pure: a string in, a string out; no
 * framework, no I/O, so the site, the builder and the gateway can share it.
 *
 * Two independent layers, so that one bug cannot make submitted text active:
 *
 * 1. markdown-it with raw HTML disabled (`html: false`): any `<tag>` in the source is shown as text. Links are
 *    accepted only for absolute http(s) and mailto URLs (anything else stays visible as its Markdown source), and
 *    images are never loaded: an image becomes a plain link saying it is an image.
 * 2. markdown-it's output parsed again and rebuilt with a short allow-list of elements and attributes
 *    (./html-fragment.ts): no script, no style, no event handler, no id or class (except table alignment), no
 *    `javascript:`/`data:`/relative/protocol-relative URL. Every link gets `rel="nofollow ugc noopener"` and no
 *    target; code blocks and tables get `tabindex="0"` (so that the keyboard can scroll them).
 *
 * The result is meant for a block the page labels as the submitter's words, under a strict Content-Security-Policy.
 */
import MarkdownIt from 'markdown-it';
import { fragmentText, sanitizeFragment, type AllowList } from './html-fragment.ts';

export interface RenderMarkdownOptions {
  /**
   * How many levels to push headings down, so that the text's own `#` headings sit below the page's headings
   * (default 2: `#` becomes `<h3>`). Levels past 6 become `<h6>`.
   */
  headingOffset?: number;
}

/** The rel every link from submitted text carries. */
export const UNTRUSTED_LINK_REL = 'nofollow ugc noopener';

/** Only absolute URLs with these schemes become links. */
const LINK_URL = /^(?:https?:\/\/[^\s/?#]+|mailto:[^\s]+@)/i;

function isAllowedUrl(url: string): boolean {
  return LINK_URL.test(url.trim());
}

interface Env {
  headingOffset: number;
}

const md = new MarkdownIt('default', {
  html: false,
  xhtmlOut: false,
  breaks: false,
  linkify: true,
  typographer: false,
});

// Links and images to anything but an absolute http(s)/mailto URL are not parsed as links (they stay as text).
md.validateLink = isAllowedUrl;

// Only text the submitter wrote as a URL (with its scheme) or as an e-mail address becomes a link: with linkify's
// fuzzy links, a file name such as README.md or report.py became a link to a web site of that name.
md.linkify.set({ fuzzyLink: false });

// Every link kept above has a scheme (`:`) or is an e-mail address (`@`): text with neither is not searched for
// links. linkify-it's own quick test also looks for fuzzy host names (it does so even with fuzzy links off), a
// Unicode-wide regular expression that cost a tenth of the echo rendering.
const linkifyPretest = md.linkify.pretest.bind(md.linkify);
md.linkify.pretest = (text: string) => (text.includes(':') || text.includes('@')) && linkifyPretest(text);

// Headings shift down; table cell alignment becomes a class (the CSP forbids style attributes).
md.core.ruler.push('echo_untrusted', (state) => {
  const offset = (state.env as Env).headingOffset;
  const visit = (tokens: typeof state.tokens) => {
    for (const token of tokens) {
      if ((token.type === 'heading_open' || token.type === 'heading_close') && /^h[1-6]$/.test(token.tag)) {
        token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + offset)}`;
      } else if (token.type === 'th_open' || token.type === 'td_open') {
        const style = token.attrGet('style');
        if (style) {
          const align = /text-align:\s*(left|center|right)/.exec(style)?.[1];
          token.attrs = align ? [['class', `align-${align}`]] : null;
        }
      }
      if (token.children) visit(token.children);
    }
  };
  visit(state.tokens);
});

// An image is never loaded: it becomes a link to its URL, labelled as an image, with its alt text.
md.renderer.rules.image = (tokens, idx, _options, _env, self) => {
  const token = tokens[idx]!;
  const src = token.attrGet('src') ?? '';
  const alt = self.renderInlineAsText(token.children ?? [], _options, _env);
  const label = `Image (not loaded)${alt ? `: ${alt}` : ''}`;
  return `<a href="${md.utils.escapeHtml(src)}">${md.utils.escapeHtml(label)}</a>`;
};

const ALIGN_CLASSES = new Set(['align-left', 'align-center', 'align-right']);

/** A table cell keeps only the alignment classes set above. */
const alignClass = (value: string): string | undefined => {
  const kept = value.split(' ').filter((c) => ALIGN_CLASSES.has(c));
  return kept.length > 0 ? kept.join(' ') : undefined;
};
const keep = (value: string) => value;
const plain = {};

/** The second layer's allow-list: the elements Markdown makes, and the few attributes they need. */
const ALLOW: AllowList = {
  elements: {
    h1: plain, h2: plain, h3: plain, h4: plain, h5: plain, h6: plain,
    p: plain, br: plain, hr: plain, blockquote: plain, ul: plain, li: plain,
    ol: { start: (value) => (/^\d{1,9}$/.test(value) ? value : undefined) },
    strong: plain, em: plain, s: plain, del: plain, code: plain, pre: plain,
    a: { href: keep },
    table: plain, thead: plain, tbody: plain, tr: plain,
    th: { class: alignClass },
    td: { class: alignClass },
  },
  finish: (name, attributes) => {
    // A code block or table wider than the page scrolls: the keyboard must be able to reach it to scroll it.
    if (name === 'pre' || name === 'table') return [['tabindex', '0']];
    if (name !== 'a') return attributes;
    // A link to anything but an absolute http(s)/mailto URL loses its link and keeps its text; every link gets the
    // untrusted rel and nothing else (no target, no title).
    const href = attributes.find(([attribute]) => attribute === 'href')?.[1];
    return href !== undefined && isAllowedUrl(href) ? [['href', href], ['rel', UNTRUSTED_LINK_REL]] : undefined;
  },
};

/** Render untrusted Markdown as a sanitised HTML fragment (see the module comment for what is allowed). */
export function renderUntrustedMarkdown(source: string, options: RenderMarkdownOptions = {}): string {
  const headingOffset = Math.max(0, Math.min(5, Math.trunc(options.headingOffset ?? 2)));
  const env: Env = { headingOffset };
  return sanitizeEchoFragment(md.render(source, env));
}

/**
 * The second layer on its own: an HTML fragment reduced to the allow-list above. Exported so that it can be tested
 * against markup that markdown-it would never produce.
 */
export function sanitizeEchoFragment(html: string): string {
  return sanitizeFragment(html, ALLOW);
}

/**
 * Plain text of untrusted Markdown, on one line, for excerpts and descriptions: the rendered text without any
 * markup, whitespace collapsed. The caller still escapes it (it may contain `<` as text).
 */
export function untrustedMarkdownToText(source: string): string {
  return oneLineText(md.render(source, { headingOffset: 0 } satisfies Env));
}

/** The text of an HTML fragment (this module's output) on one line, whitespace collapsed. */
export function oneLineText(html: string): string {
  return fragmentText(html).replace(/\s+/g, ' ').trim();
}
