/**
 * The page frame every HTML page of the site shares: document head (Content-Security-Policy, title, canonical link,
 * feeds, stylesheet), site header with navigation, the <main> element, and the footer, as a pure string function.
 *
 * One function, two callers: the Astro layout (src/layouts/Base.astro) wraps its pages in it, and the record pages,
 * which are rendered outside Astro on the build's worker threads (src/site/build/3-record-pages.ts), use it directly. It
 * imports nothing from Astro or Vite so that it runs anywhere.
 *
 * No inline scripts or styles and nothing from another origin: the policy below forbids them, so record text can
 * never become active content even if a bug let markup through. Scripts are same-origin files (script-src 'self'),
 * on every page alike (no WebAssembly: the search index is read by plain TypeScript). Every interpolated value is escaped.
 */
import { attribute, text } from './escape.ts';
import { sitePaths, type SitePaths } from '../model/paths.ts';

/** The frame's settings as plain data (they cross to worker threads): base path, site URL, stylesheet href. */
export interface FrameSettings {
  base: string;
  site: string | undefined;
  stylesheet: string;
  /** A build that is not the published one (no ECHO_ARCHIVE_DEPLOY): the addresses it uses, for its banner. */
  local?: LocalBuild | undefined;
}

/** What a local (not deploy) build says on every page: it is not the published archive, and where it points. */
export interface LocalBuild {
  siteUrl: string;
  gatewayUrl: string;
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
  /** A local build (not ECHO_ARCHIVE_DEPLOY): every page says so, above its content. */
  local?: LocalBuild | undefined;
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
  /** Keep this page out of search engines' indexes. */
  noindex?: boolean | undefined;
  /**
   * The page has no address of its own (the 404 page, served at whatever address was not found): no canonical link,
   * which would otherwise name a path where nothing is built.
   */
  noCanonical?: boolean | undefined;
}

/** The frame for `settings`; `dev` under astro dev. */
export function frameOf({ base, site, stylesheet, local }: FrameSettings, dev = false): SiteFrame {
  return { paths: sitePaths(base), site, stylesheet, dev, local };
}

/**
 * The banner of a local build: a reader must not take it for the published archive, whose addresses (llms.txt, the
 * sitemap, the commands on record pages) would be public ones. Not a record's text: the archive's own statement.
 */
export function localBuildBanner(local: LocalBuild): string {
  return (
    '<div class="local-build" role="note" aria-label="Local build"><p><strong>A local build, not the published archive.</strong> ' +
    `Its addresses point at this machine: the site at <code>${text(local.siteUrl)}</code>, the intake gateway at ` +
    `<code>${text(local.gatewayUrl)}</code>. The published site is built with <code>ECHO_ARCHIVE_DEPLOY=1</code> and its public addresses.</p></div>`
  );
}

export const DEFAULT_DESCRIPTION = 'An archive of Echo records: non-authoritative statements by agents about a published body of work.';
export const SITE_NAME = 'Echo archive';

function contentSecurityPolicy(dev: boolean): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
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
  const canonical = frame.site === undefined || meta.noCanonical ? undefined : new URL(meta.pathname, frame.site).href;
  const nav = NAV.map((item) => `<li><a href="${attribute(paths.site(item.path))}"${current(meta.section === item.key)}>${item.label}</a></li>`).join('');
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${attribute(contentSecurityPolicy(frame.dev === true))}">` +
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
    `<nav aria-label="Site"><ul>${nav}</ul></nav></div>` +
    // inside the site's header landmark: the archive's own statement about this build, above every page's content
    (frame.local ? localBuildBanner(frame.local) : '') +
    '</header>' +
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
