/**
 * Checks over a whole built site (the output folder of `npm run build`), for tests/build/built-site.test.ts:
 * every HTML page's text, every internal link, the documents under /api/. Pure functions of the files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';

type Node = ReturnType<typeof parseDocument>['children'][number];
type Element = Extract<Node, { type: 'tag' | 'script' | 'style' }> & { name: string; attribs: Record<string, string> };

/** Every file under `dir`, as site paths ("/agents/index.html"). */
export function siteFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => `/${relative(dir, join(d.parentPath, d.name)).split('\\').join('/')}`)
    .sort();
}

export const htmlFiles = (dir: string) => siteFiles(dir).filter((p) => p.endsWith('.html'));

/** Phrasing elements whose text runs on with the text around them. */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'cite', 'code', 'data', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var']);
/** Where text is not the archive's prose: code blocks, scripts, and a submitter's own words (their Markdown is theirs). */
const SKIP = (el: Element) =>
  el.name === 'pre' || el.name === 'script' || el.name === 'style' || el.name === 'template' || /(^|\s)(submitted|words-md|words)(\s|$)/.test(el.attribs.class ?? '');

const WORD = /[\p{L}\p{N}]/u;

function isElement(n: Node | null | undefined): n is Element {
  return !!n && (n.type === 'tag' || n.type === 'script' || n.type === 'style');
}

const textOf = (n: Node): string => DomUtils.textContent(n);

/** The character just before `n` in the text of its line (crossing out of inline parents), or '' at a block edge. */
function charBefore(n: Node): string {
  for (let cur: Node | null = n; cur; cur = cur.parent as Node | null) {
    for (let prev = cur.prev as Node | null; prev; prev = prev.prev as Node | null) {
      if (isElement(prev) && !INLINE.has(prev.name) && prev.name !== 'br' && prev.name !== 'wbr') return '';
      if (isElement(prev) && prev.name === 'br') return '';
      const t = textOf(prev);
      // Two elements side by side are laid out by the stylesheet (a value and its raw code, a row of links):
      // only text running into an element is prose.
      if (t.length > 0) return isElement(prev) ? '' : t.at(-1)!;
    }
    const parent = cur.parent as Node | null;
    if (!isElement(parent) || !INLINE.has(parent.name)) return '';
  }
  return '';
}

function charAfter(n: Node): string {
  for (let cur: Node | null = n; cur; cur = cur.parent as Node | null) {
    for (let next = cur.next as Node | null; next; next = next.next as Node | null) {
      if (isElement(next) && !INLINE.has(next.name)) return '';
      const t = textOf(next);
      if (t.length > 0) return isElement(next) ? '' : t[0]!;
    }
    const parent = cur.parent as Node | null;
    if (!isElement(parent) || !INLINE.has(parent.name)) return '';
  }
  return '';
}

/**
 * Words glued to an inline element: a letter or digit directly before an inline element whose text starts with one,
 * or directly after one whose text ends with one ("status<em>accepted", "<code>cp.txt</code>exits"). In prose a word
 * and an element beside it are always apart (a space, a dash, a bracket or punctuation); a source line break that the
 * template compiler dropped is the usual cause. Returns each as "…before⟨element⟩after…".
 */
export function gluedWords(html: string): string[] {
  const found: string[] = [];
  const doc = parseDocument(html);
  const walk = (nodes: readonly Node[]) => {
    for (const n of nodes) {
      if (!isElement(n)) continue;
      if (SKIP(n)) continue;
      if (INLINE.has(n.name)) {
        const inner = textOf(n);
        if (inner.length > 0) {
          const before = charBefore(n);
          const after = charAfter(n);
          const glued = (WORD.test(before) && WORD.test(inner[0]!)) || (WORD.test(inner.at(-1)!) && WORD.test(after));
          if (glued) found.push(`${before}⟨${n.name}⟩${inner.slice(0, 40)}⟨/${n.name}⟩${after}`);
        }
      }
      walk(n.children as Node[]);
    }
  };
  walk(doc.children);
  return found;
}

/** Every internal reference of a page: href, src, srcset and action values on the site's own origin or relative. */
export function pageReferences(html: string): { tag: string; attr: string; value: string }[] {
  const refs: { tag: string; attr: string; value: string }[] = [];
  const doc = parseDocument(html);
  for (const el of DomUtils.findAll(() => true, doc.children) as Element[]) {
    for (const attr of ['href', 'src', 'action', 'poster', 'data']) {
      const value = el.attribs[attr];
      if (value !== undefined) refs.push({ tag: el.name, attr, value });
    }
    if (el.attribs.srcset) for (const part of el.attribs.srcset.split(',')) refs.push({ tag: el.name, attr: 'srcset', value: part.trim().split(/\s+/)[0]! });
  }
  return refs;
}

/** Element ids of a page (for fragment links). */
export function pageIds(html: string): Set<string> {
  const doc = parseDocument(html);
  return new Set((DomUtils.findAll((e) => e.attribs.id !== undefined, doc.children) as Element[]).map((e) => e.attribs.id!));
}

/**
 * The built file an internal URL names, or undefined when nothing is built there. `origin` is the site's own origin
 * and `base` its path ("/"); a URL elsewhere is external (returns null).
 */
export function resolveInternal(dir: string, url: string, from: string, siteUrl: string): { path: string; file: string | undefined; fragment: string } | null {
  let u: URL;
  try {
    u = new URL(url, new URL(from, siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`));
  } catch {
    return null;
  }
  const site = new URL(siteUrl);
  if (u.origin !== site.origin || (u.protocol !== 'http:' && u.protocol !== 'https:')) return null;
  const basePath = site.pathname.endsWith('/') ? site.pathname : `${site.pathname}/`;
  let path = decodeURIComponent(u.pathname);
  if (!path.startsWith(basePath) && `${path}/` !== basePath) return { path, file: undefined, fragment: u.hash.slice(1) };
  const inside = `/${path.slice(basePath.length)}`;
  const candidates = inside.endsWith('/') ? [`${inside}index.html`] : [inside, `${inside}/index.html`, `${inside}.html`];
  const file = candidates.find((c) => existsSync(join(dir, c)) && statSync(join(dir, c)).isFile());
  path = inside;
  return { path, file, fragment: u.hash.slice(1) };
}

export const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
