// @ts-check
/**
 * Astro configuration: a fully static site, no network at build time, no client JavaScript.
 * The archive is read and validated by the core once per build (src/site/build/integration.ts); an invalid archive fails the build.
 */
import { defineConfig } from 'astro/config';
import { siteAddress } from './src/core/config.ts';
import { echoArchive } from './src/site/build/integration.ts';

const { site, base } = siteAddress();

// The build must work offline and say nothing to anyone: no telemetry. (Read after the config is loaded.)
process.env.ASTRO_TELEMETRY_DISABLED ??= '1';

export default defineConfig({
  output: 'static',
  // Validates the archive once when the build starts, and publishes the raw record files when it ends.
  integrations: [echoArchive()],
  // Absolute URLs (canonical links, and later the policy documents' {base_url}) come from here. A production build
  // (ECHO_ARCHIVE_DEPLOY=1) without public SITE_URL and GATEWAY_URL stops here (src/core/config.ts).
  site,
  // A site served under a path (a GitHub Pages project site: https://owner.github.io/<repository>) links under it.
  base,
  // Pages are folders (/records/<id>/); endpoints with an extension (/records/<id>.json) are served as files.
  trailingSlash: 'always',
  build: {
    format: 'directory',
    // Render the next pages while earlier ones are written: with one page at a time the build waited on file
    // creation for about a third of its time (CPU profile, 1,500 records); four cut the page phase by about 15 %.
    // (Measured when the record pages were Astro pages. Now that Astro renders only the listing pages, 1 and 4 came
    // out the same in memory: 10k records, four builds each, in turn, medians 9.0 s and 9.2 s; kept for slow disks.)
    concurrency: 4,
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
  // Whitespace in .astro sources is kept as HTML keeps it (collapsed losslessly), not by Astro 7's default JSX rules,
  // which drop a line break between a word and an inline element and glue them ("status<em>accepted"). Every
  // built page's text is checked for words glued to inline elements (tests/build/built-site.test.ts).
  compressHTML: true,
});
