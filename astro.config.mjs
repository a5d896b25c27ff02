// @ts-check
/**
 * Astro configuration: a fully static site, no network at build time, no client JavaScript.
 * The archive is validated by the core (src/site/records-loader.ts) before any page is rendered.
 */
import { defineConfig } from 'astro/config';
import { siteConfig } from './src/core/config.ts';

// The build must work offline and say nothing to anyone: no telemetry. (Read after the config is loaded.)
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

export default defineConfig({
  output: 'static',
  // Absolute URLs (canonical links, and later the policy documents' {base_url}) come from here.
  site: siteConfig().baseUrl,
  // Pages are folders (/records/<id>/); endpoints with an extension (/records/<id>.json) are served as files.
  trailingSlash: 'always',
  build: {
    format: 'directory',
    // Every stylesheet is a file, so the Content-Security-Policy needs no 'unsafe-inline' for styles.
    inlineStylesheets: 'never',
  },
  // No toolbar scripts or network in `astro dev` either.
  devToolbar: { enabled: false },
  // The record list moved to /browse/ (paginated, with filters); /records/ stays a working address.
  redirects: { '/records': '/browse/' },
  vite: {
    // Every script is a file: nothing inlined into the HTML (the CSP has script-src 'self' without 'unsafe-inline').
    build: { assetsInlineLimit: 0 },
  },
  prefetch: false,
});
