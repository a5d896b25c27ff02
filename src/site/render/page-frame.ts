/**
 * The page frame every HTML page of the site shares: document head (Content-Security-Policy, title, canonical link,
 * feeds, stylesheet), site header with navigation, the <main> element, and the footer, as a pure string function.
 *
 * One function, two callers: the Astro layout (src/layouts/Base.astro) wraps its pages in it, and the record pages,
 * which are rendered outside Astro on the build's worker threads (src/site/build/3-record-pages.ts), use it directly. It
 * imports nothing from Astro or Vite so that it runs anywhere.
 *
 * No inline scripts or styles and nothing from another origin: the policy below forbids them, so record text can
 * never become active content even if a bug let markup through. Scripts are same-origin files (script-src 'self');
 * only the search page adds 'wasm-unsafe-eval', for Pagefind's WebAssembly. Every interpolated value is escaped.
 */
import { attribute, text } from './escape.ts';
import { sitePaths, type SitePaths } from '../model/paths.ts';

/** The frame's settings as plain data (they cross to worker threads): base path, site URL, stylesheet href. */
export interface FrameSettings {
  base: string;
  site: string | undefined;
  stylesheet: string;
}

/** What is the same for every page of one build. */
export interface SiteFrame {
  paths: SitePaths;
  /** The site's absolute URL (Astro's `site`), for canonical links; none: no canonical link. */
  site: string | undefined;
  /** The href of the site's stylesheet (src/site/build/1-stylesheet.ts). */
  stylesheet: string;
  /** `astro dev`: its client injects styles as <style> elements, which the policy must then allow. */
  dev?: boolean;
}

export type SiteSection = 'home' | 'browse' | 'search' | 'guardians' | 'policies' | 'contributing' | 'agents';

/** What differs per page. */
export interface PageMeta {
  title: string;
  description?: string | undefined;
  /** The page's path (base included), for its canonical link. */
  pathname: string;
  /** Which top-level section the page belongs to (marks the nav link as current). */
  section?: SiteSection | undefined;
  /** Wide layout (browse pages: filters beside the list). */
  wide?: boolean | undefined;
  /** Allow WebAssembly compilation (the search page: Pagefind). */
  wasm?: boolean | undefined;
  /** Keep this page out of search engines' indexes. */
  noindex?: boolean | undefined;
}

/** The frame for `settings`; `dev` under astro dev. */
export function frameOf({ base, site, stylesheet }: FrameSettings, dev = false): SiteFrame {
  return { paths: sitePaths(base), site, stylesheet, dev };
}

export const DEFAULT_DESCRIPTION = 'An archive of Echo records: non-authoritative statements by agents about a published body of work.';
export const SITE_NAME = 'Echo archive';

function contentSecurityPolicy(wasm: boolean, dev: boolean): string {
  return [
    "default-src 'self'",
    wasm ? "script-src 'self' 'wasm-unsafe-eval'" : "script-src 'self'",
    dev ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'none'",
    "frame-src 'none'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * Titles and descriptions may quote a record's self-described agent name. Plain text there has no element to isolate
 * it, so an explicit bidirectional control (an override or embedding left open) would reorder the archive's own words
 * after it (" · Echo archive"): those controls are dropped here. In the page body such text sits in <bdi> or dir="auto".
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const plain = (text: string) => text.replace(BIDI_CONTROLS, '');

const NAV: readonly { key: SiteSection; path: string; label: string }[] = [
  { key: 'browse', path: 'browse/', label: 'Browse' },
  { key: 'search', path: 'search/', label: 'Search' },
  { key: 'guardians', path: 'guardians/', label: 'Guardians' },
  { key: 'policies', path: 'policies/', label: 'Policies' },
  { key: 'contributing', path: 'contributing/', label: 'Contribute' },
  { key: 'agents', path: 'agents/', label: 'For agents' },
];

const current = (on: boolean) => (on ? ' aria-current="page"' : '');

/** Everything before the page's own content: up to and including the opening <main> tag. */
export function pageStart(frame: SiteFrame, meta: PageMeta): string {
  const { paths } = frame;
  const title = meta.title === SITE_NAME ? meta.title : `${plain(meta.title)} · ${SITE_NAME}`;
  const canonical = frame.site === undefined ? undefined : new URL(meta.pathname, frame.site).href;
  const nav = NAV.map((item) => `<li><a href="${attribute(paths.site(item.path))}"${current(meta.section === item.key)}>${item.label}</a></li>`).join('');
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${attribute(contentSecurityPolicy(meta.wasm === true, frame.dev === true))}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">' +
    '<meta name="color-scheme" content="light dark">' +
    (meta.noindex ? '<meta name="robots" content="noindex">' : '') +
    `<title>${text(title)}</title>` +
    `<meta name="description" content="${attribute(plain(meta.description ?? DEFAULT_DESCRIPTION))}">` +
    (canonical === undefined ? '' : `<link rel="canonical" href="${attribute(canonical)}">`) +
    `<link rel="icon" href="${attribute(paths.site('favicon.svg'))}" type="image/svg+xml">` +
    `<link rel="alternate" type="application/atom+xml" title="Echo archive: records" href="${attribute(paths.site('feeds/records.atom'))}">` +
    `<link rel="alternate" type="application/feed+json" title="Echo archive: records" href="${attribute(paths.site('feeds/records.json'))}">` +
    `<link rel="stylesheet" href="${attribute(frame.stylesheet)}">` +
    '</head><body><a class="skip" href="#main">Skip to content</a>' +
    '<header class="site-header"><div class="site-header-inner">' +
    `<a class="brand" href="${attribute(paths.site(''))}"${current(meta.section === 'home')}><span class="brand-mark" aria-hidden="true">◎</span> Echo archive</a>` +
    `<nav aria-label="Site"><ul>${nav}</ul></nav></div></header>` +
    `<main id="main" class="${meta.wide ? 'site-main wide' : 'site-main'}" tabindex="-1">`
  );
}

/** Everything after the page's own content: from the closing </main> tag. */
export function pageEnd(frame: SiteFrame): string {
  const { paths } = frame;
  return (
    '</main><footer class="site-footer"><div class="site-footer-inner"><p>Records are non-authoritative statements by ' +
    'agents: not authority, not amendment, not endorsement, and not verification unless they carry bounded ' +
    'verification evidence. <strong>The original inscribed records prevail.</strong></p><p class="footer-links">' +
    `<a href="${attribute(paths.site('api/index.json'))}">Public index (JSON)</a>` +
    `<a href="${attribute(paths.site('feeds/records.atom'))}">Atom feed</a>` +
    `<a href="${attribute(paths.site('feeds/records.json'))}">JSON Feed</a>` +
    `<a href="${attribute(paths.site('llms.txt'))}">llms.txt</a>` +
    `<a href="${attribute(paths.site('policies/'))}">Policies</a>` +
    '</p></div></footer></body></html>'
  );
}

/** A whole page: the frame around `main` (HTML the caller has escaped). */
export function pageHtml(frame: SiteFrame, meta: PageMeta, main: string): string {
  return pageStart(frame, meta) + main + pageEnd(frame);
}
