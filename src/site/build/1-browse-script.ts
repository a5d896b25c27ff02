/**
 * The browse filters' script (src/site/client/browse-filter.ts) as a same-origin file whose name carries its hash:
 * bundled here with esbuild rather than by Astro, because the listing pages that load it are rendered beside Astro
 * (src/site/build/3-record-pages.ts) and must name the file before Astro has bundled anything. The build writes it
 * into the output; `astro dev` serves it from the integration's middleware, bundled afresh on each request.
 */
import { buildSync } from 'esbuild';
import { sha256Hex } from '../../core/crypto/sha256.ts';

/** The script's source, from the project's root. */
export const BROWSE_SCRIPT_SOURCE = 'src/site/client/browse-filter.ts';

export interface BrowseScript {
  /** Its path from the site's root (no base): scripts/browse-filter.<first 12 hex digits of its SHA-256>.js. */
  path: string;
  bytes: Uint8Array;
}

/** Bundles the script of the project at `repo` (the same source gives the same bytes and name). */
export function bundleBrowseScript(repo: string): BrowseScript {
  const { outputFiles } = buildSync({
    absWorkingDir: repo,
    entryPoints: [BROWSE_SCRIPT_SOURCE],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const bytes = outputFiles[0]!.contents;
  return { path: `scripts/browse-filter.${sha256Hex(bytes).slice(0, 12)}.js`, bytes };
}
