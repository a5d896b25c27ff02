/**
 * HTML fragments from untrusted text, read with htmlparser2 (a spec-following HTML tokenizer, the one sanitize-html
 * is built on) and written out again from scratch:
 *
 * - `sanitizeFragment`: only the elements and attributes of an allow-list survive. Every text and attribute value
 *   is escaped anew, so nothing the input spells (entities, quotes, stray `<`) reaches the output as markup; only
 *   elements this function opened are closed; comments, processing instructions and CDATA are dropped; the text of
 *   elements that hold code or form controls (script, style, textarea, …) is dropped with them.
 * - `fragmentText`: the text a reader sees, for excerpts.
 *
 * Why not sanitize-html itself: the same parser with a general-purpose policy engine on top cost 2.1–2.4 s per 10,000
 * echo texts, against about 0.9 s here, on the build's busiest path. A test gives both the echo allow-list and random
 * fragments and checks that they write the same HTML (tests/markdown/render.test.ts).
 */
import { Parser } from 'htmlparser2';

/** What may survive: each allowed element with its allowed attributes, and how an attribute's value is checked. */
export interface AllowList {
  /** Element name → attribute name → the value to keep (possibly rewritten), or undefined to drop the attribute. */
  readonly elements: Readonly<Record<string, Readonly<Record<string, (value: string) => string | undefined>>>>;
  /**
   * Called for each allowed element with its kept attributes: the attributes to write, in order, or undefined to
   * drop the element itself (its content stays). Default: the kept attributes as they are.
   */
  readonly finish?: (name: string, attributes: [string, string][]) => [string, string][] | undefined;
}

/** Elements written as `<name />`, without a closing tag. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Elements whose text is not for a reader (code, styles, form controls, fallbacks): dropped with the element. */
const HIDDEN_TEXT = new Set(['script', 'style', 'textarea', 'option', 'xmp', 'noscript', 'title', 'iframe', 'noembed', 'noframes', 'plaintext', 'template']);

const TEXT_SPECIAL = /[&<>]/;

function escapeText(text: string): string {
  if (!TEXT_SPECIAL.test(text)) return text;
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** An HTML fragment reduced to `allow` (see the module comment); leading and trailing whitespace trimmed. */
export function sanitizeFragment(html: string, allow: AllowList): string {
  let out = '';
  /** Each element open in the input, and whether it was written (and so must be closed). */
  const open = openElements<boolean>();
  let hiddenDepth = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (HIDDEN_TEXT.has(name)) hiddenDepth++;
        const allowed = hiddenDepth === 0 && Object.hasOwn(allow.elements, name) ? allow.elements[name]! : undefined;
        let attributes: [string, string][] | undefined;
        if (allowed !== undefined) {
          attributes = [];
          for (const [attribute, value] of Object.entries(attribs)) {
            const kept = Object.hasOwn(allowed, attribute) ? allowed[attribute]!(value) : undefined;
            if (kept !== undefined) attributes.push([attribute, kept]);
          }
          if (allow.finish) attributes = allow.finish(name, attributes);
        }
        open.push(name, attributes !== undefined);
        if (attributes === undefined) return;
        out += `<${name}`;
        for (const [attribute, value] of attributes) out += ` ${attribute}="${escapeAttribute(value)}"`;
        out += VOID.has(name) ? ' />' : '>';
      },
      ontext(text) {
        if (hiddenDepth === 0) out += escapeText(text);
      },
      onclosetag(name) {
        const closed = open.close(name);
        if (closed === undefined) return;
        if (closed.written && !VOID.has(name)) out += `</${name}>`;
        if (HIDDEN_TEXT.has(name)) hiddenDepth--;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return out.trim();
}

/**
 * The elements the parser has opened, each with what the caller noted of it (`written`), to tell a close that ends
 * the innermost of them from one that ends nothing (undefined): a tag cut off at the end of the input (`<p><b`) is
 * closed by htmlparser2 (12) but was never opened, and its close must not end the element around it (that wrote
 * `<p></b>`, a tag outside the allow-list).
 */
function openElements<T>(): { push(name: string, written: T): void; close(name: string): { written: T } | undefined } {
  const elements: { name: string; written: T }[] = [];
  return {
    push: (name, written) => void elements.push({ name, written }),
    close: (name) => (elements[elements.length - 1]?.name === name ? elements.pop() : undefined),
  };
}

/** Elements after which a reader sees a break: a space in the text. */
const BLOCK = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'tr', 'th', 'td', 'pre', 'blockquote', 'br', 'hr']);

/**
 * The text of an HTML fragment as a reader sees it, decoded (so it may contain `<`: the caller escapes it), with a
 * space after each block and without the text of HIDDEN_TEXT elements. Whitespace is left as it is.
 */
export function fragmentText(html: string): string {
  let out = '';
  const open = openElements<undefined>();
  let hiddenDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        open.push(name, undefined);
        if (HIDDEN_TEXT.has(name)) hiddenDepth++;
      },
      ontext(text) {
        if (hiddenDepth === 0) out += text;
      },
      onclosetag(name) {
        if (open.close(name) === undefined) return;
        if (HIDDEN_TEXT.has(name)) hiddenDepth--;
        else if (BLOCK.has(name)) out += ' ';
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return out;
}
