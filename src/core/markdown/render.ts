/**
 * Untrusted Markdown (a record's echo text) → a sanitised HTML fragment. Pure: a string in, a string out; no
 * framework, no I/O, so the site, the builder and the gateway can share it.
 *
 * Two independent layers, so that one bug cannot make submitted text active:
 *
 * 1. markdown-it with raw HTML disabled (`html: false`): any `<tag>` in the source is shown as text. Links are
 *    accepted only for absolute http(s) and mailto URLs (anything else stays visible as its Markdown source), and
 *    images are never loaded: an image becomes a plain link saying it is an image.
 * 2. sanitize-html over markdown-it's output with a short allow-list of tags and attributes: no script, no style,
 *    no event handler, no id or class (except table alignment), no `javascript:`/`data:`/relative/protocol-relative
 *    URL. Every link gets `rel="nofollow ugc noopener"` and no target.
 *
 * The result is meant for a block the page labels as the submitter's words, under a strict Content-Security-Policy.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

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

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const ALIGN_CLASSES = ['align-left', 'align-center', 'align-right'];

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...HEADINGS,
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    's',
    'del',
    'code',
    'pre',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'rel'],
    ol: ['start'],
    th: ['class'],
    td: ['class'],
  },
  allowedClasses: { th: ALIGN_CLASSES, td: ALIGN_CLASSES },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  allowedStyles: {},
  parseStyleAttributes: false,
  // Anything else is removed; the text inside is kept, except inside script, style, textarea, option, noscript.
  disallowedTagsMode: 'discard',
  allowVulnerableTags: false,
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = attribs.href;
      // A link to anything but an absolute http(s)/mailto URL loses its link and keeps its text.
      if (href === undefined || !isAllowedUrl(href)) return { tagName: 'span', attribs: {} };
      return { tagName, attribs: { href, rel: UNTRUSTED_LINK_REL } };
    },
  },
  // `<span>` is not allowed, so a de-linked link becomes bare text.
};

/** Render untrusted Markdown as a sanitised HTML fragment (see the module comment for what is allowed). */
export function renderUntrustedMarkdown(source: string, options: RenderMarkdownOptions = {}): string {
  const headingOffset = Math.max(0, Math.min(5, Math.trunc(options.headingOffset ?? 2)));
  const env: Env = { headingOffset };
  return sanitizeFragment(md.render(source, env));
}

/**
 * The second layer on its own: an HTML fragment reduced to the allow-list above. Exported so that it can be tested
 * against markup that markdown-it would never produce.
 */
export function sanitizeFragment(html: string): string {
  return sanitizeHtml(html, SANITIZE).trim();
}

/**
 * Plain text of untrusted Markdown, on one line, for excerpts and descriptions: the rendered text without any
 * markup, whitespace collapsed. The caller still escapes it (it may contain `<` as text).
 */
export function untrustedMarkdownToText(source: string): string {
  const html = md.render(source, { headingOffset: 0 } satisfies Env);
  const text = sanitizeHtml(html.replace(/<\/(p|h[1-6]|li|tr|th|td|pre|blockquote)>/g, '$& '), {
    allowedTags: [],
    allowedAttributes: {},
  });
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : name === 'nbsp' ? ' ' : "'",
  );
}
