/**
 * The page frame every page shares (src/site/render/page-frame.ts): the policy, the head, navigation and footer,
 * under any base path; and, for any title or description at all (they may quote a record's agent name), only the
 * frame's own elements, with the text kept as text.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import { sitePaths } from '../../src/site/model/paths.ts';
import { DEFAULT_DESCRIPTION, pageEnd, pageHtml, pageStart, type SiteFrame } from '../../src/site/render/page-frame.ts';

const frame: SiteFrame = { paths: sitePaths('/'), site: 'https://echoes.example.org', stylesheet: '/styles/site.css?v=abc' };
const page = { title: 'Browse', pathname: '/browse/' };

/** Every element of a document, with its attributes, depth first (htmlparser2 parses as a browser would). */
function elements(html: string): { name: string; attribs: Record<string, string>; text: string }[] {
  const out: { name: string; attribs: Record<string, string>; text: string }[] = [];
  const walk = (node: { type: string; name?: string; attribs?: Record<string, string>; children?: unknown[] }) => {
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      out.push({ name: node.name!, attribs: node.attribs!, text: textOf(node) });
    }
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(parseDocument(html) as unknown as Parameters<typeof walk>[0]);
  return out;
}
function textOf(node: { type: string; data?: string; children?: unknown[] }): string {
  if (node.type === 'text') return node.data!;
  return (node.children ?? []).map((c) => textOf(c as typeof node)).join('');
}
const policy = (html: string) => elements(html).find((e) => e.attribs['http-equiv'] === 'Content-Security-Policy')!.attribs.content!;

describe('the page frame', () => {
  it('sets a strict Content-Security-Policy: no inline script or style, nothing from another origin', () => {
    const csp = policy(pageHtml(frame, page, ''));
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('wasm');
  });

  it('allows inline styles only in astro dev', () => {
    expect(policy(pageHtml(frame, page, ''))).toContain("style-src 'self';");
    expect(policy(pageHtml({ ...frame, dev: true }, page, ''))).toContain("style-src 'self' 'unsafe-inline'");
  });

  it('names the page, with the site name after it (the home page is the site name)', () => {
    const title = (t: string) => elements(pageHtml(frame, { ...page, title: t }, '')).find((e) => e.name === 'title')!.text;
    expect(title('Browse')).toBe('Browse · Echo archive');
    expect(title('Echo archive')).toBe('Echo archive');
  });

  it('drops bidirectional controls from the title and description, so they cannot reorder the archive\u2019s words', () => {
    const html = pageHtml(frame, { ...page, title: 'x \u202Eevil', description: 'by \u2067agent' }, '');
    expect(elements(html).find((e) => e.name === 'title')!.text).toBe('x evil · Echo archive');
    expect(elements(html).find((e) => e.attribs.name === 'description')!.attribs.content).toBe('by agent');
  });

  it('has a default description, a canonical link from the site URL, and the stylesheet', () => {
    const els = elements(pageHtml(frame, page, ''));
    expect(els.find((e) => e.attribs.name === 'description')!.attribs.content).toBe(DEFAULT_DESCRIPTION);
    expect(els.find((e) => e.attribs.rel === 'canonical')!.attribs.href).toBe('https://echoes.example.org/browse/');
    expect(els.find((e) => e.attribs.rel === 'stylesheet')!.attribs.href).toBe('/styles/site.css?v=abc');
    expect(elements(pageHtml({ ...frame, site: undefined }, page, '')).some((e) => e.attribs.rel === 'canonical')).toBe(false);
  });

  it('marks the current section in the navigation, and the brand link on the home page', () => {
    const current = (section?: 'home' | 'browse' | 'agents') =>
      elements(pageHtml(frame, { ...page, section }, '')).filter((e) => e.attribs['aria-current'] === 'page').map((e) => e.text.trim());
    expect(current('browse')).toEqual(['Browse']);
    expect(current('agents')).toEqual(['For agents']);
    expect(current('home')).toEqual(['◎ Echo archive']);
    expect(current(undefined)).toEqual([]);
  });

  it('keeps noindex and the wide layout to the pages that ask', () => {
    expect(pageHtml(frame, page, '')).not.toContain('noindex');
    expect(elements(pageHtml(frame, { ...page, noindex: true }, '')).some((e) => e.attribs.name === 'robots' && e.attribs.content === 'noindex')).toBe(true);
    expect(elements(pageHtml(frame, page, '')).find((e) => e.name === 'main')!.attribs.class).toBe('site-main');
    expect(elements(pageHtml(frame, { ...page, wide: true }, '')).find((e) => e.name === 'main')!.attribs.class).toBe('site-main wide');
  });

  it('puts every link of the site under its base path', () => {
    const under = { ...frame, paths: sitePaths('/archive/'), stylesheet: '/archive/styles/site.css?v=1' };
    const links = elements(pageHtml(under, page, '')).flatMap((e) => [e.attribs.href].filter((h): h is string => h !== undefined));
    expect(links.length).toBeGreaterThan(10);
    for (const href of links) expect(href.startsWith('/archive/') || href === '#main' || href.startsWith('https://')).toBe(true);
  });

  it('is the start, the content, and the end', () => {
    expect(pageHtml(frame, page, '<p>x</p>')).toBe(`${pageStart(frame, page)}<p>x</p>${pageEnd(frame)}`);
    expect(pageStart(frame, page).startsWith('<!DOCTYPE html><html lang="en"><head>')).toBe(true);
    expect(pageStart(frame, page).endsWith('<main id="main" class="site-main" tabindex="-1">')).toBe(true);
    expect(pageEnd(frame).startsWith('</main>')).toBe(true);
  });

  it('keeps any title and description as text: the same elements as for a plain one, the exact text', () => {
    const plainShape = elements(pageHtml(frame, page, '')).map((e) => e.name);
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('</title><script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'&amp;\"", '<!--', '\u202E'),
    );
    fc.assert(
      fc.property(text, text, (title, description) => {
        fc.pre(title !== 'Echo archive');
        const els = elements(pageHtml(frame, { ...page, title, description }, ''));
        expect(els.map((e) => e.name)).toEqual(plainShape);
        const noBidi = (s: string) => s.replace(/[\u202A-\u202E\u2066-\u2069]/g, '');
        expect(els.find((e) => e.name === 'title')!.text).toBe(`${noBidi(title)} · Echo archive`);
        expect(els.find((e) => e.attribs.name === 'description')!.attribs.content).toBe(noBidi(description));
      }),
    );
  });
});

describe('a local build (issue 26, item 4) and the 404 page (item 11)', () => {
  const local = { siteUrl: 'http://localhost:4321', gatewayUrl: 'http://127.0.0.1:8787' };
  it('a local build says so on every page, with the addresses it points at; a deploy build does not', () => {
    const html = pageHtml({ ...frame, local }, page, '<p>x</p>');
    const banner = elements(html).find((e) => e.attribs.class === 'local-build');
    expect(banner?.text).toContain('A local build, not the published archive.');
    expect(banner?.text).toContain('http://localhost:4321');
    expect(banner?.text).toContain('http://127.0.0.1:8787');
    expect(pageHtml(frame, page, '<p>x</p>')).not.toContain('local-build');
  });

  it('a page without an address of its own has no canonical link', () => {
    expect(pageHtml(frame, page, '')).toContain('<link rel="canonical" href="https://echoes.example.org/browse/">');
    expect(pageHtml(frame, { title: 'Not found', pathname: '/404/', noindex: true, noCanonical: true }, '')).not.toContain('rel="canonical"');
  });
});
