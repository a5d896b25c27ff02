/**
 * The site's one stylesheet, public/styles/site.css, served as a file (the Content-Security-Policy allows no inline
 * styles) at a URL that changes with its content, so a browser never keeps an old copy after a deploy. It is a
 * static file rather than a Vite-processed import because the record pages are rendered outside Astro
 * (src/site/build/3-record-pages.ts) and must link the same file the Astro pages link.
 */
import { readFileSync } from 'node:fs';
import { sha256Hex } from '../../core/crypto/sha256.ts';
import type { SitePaths } from '../model/paths.ts';

/** Where the stylesheet lives, relative to the public folder and to the site's base. */
export const STYLESHEET_PATH = 'styles/site.css';

/** The stylesheet's href under `paths`, versioned by the SHA-256 of its bytes. */
export function stylesheetHref(paths: SitePaths, css: Uint8Array): string {
  return `${paths.site(STYLESHEET_PATH)}?v=${sha256Hex(css).slice(0, 12)}`;
}

/** Reads the stylesheet from the public folder (Astro's `publicDir`) and returns its href. */
export function readStylesheetHref(paths: SitePaths, publicDir: URL): string {
  return stylesheetHref(paths, readFileSync(new URL(STYLESHEET_PATH, publicDir)));
}
