/**
 * The browse filters' script (src/site/client/browse-filter.ts) as a same-origin file whose name carries its hash:
 * bundled here with esbuild rather than by Astro, because the listing pages that load it are rendered beside Astro
 * (src/site/build/3-record-pages.ts) and must name the file before Astro has bundled anything. The build writes it
 * into the output; `astro dev` serves it from the integration's middleware (devBrowseScript: bundled again only when
 * one of its source files changed). A build with its caches on takes the bytes from the last build's when the code is
 * the same (cache/browse-script-cache.ts).
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { sha256Hex } from '../../core/crypto/sha256.ts';
import { cachedBrowseScriptBytes } from './cache/browse-script-cache.ts';

// esbuild is loaded when a bundle is made, not with this module: a build whose bundle comes from its cache needs none.
const require = createRequire(import.meta.url);

/** The script's source, from the project's root. */
export const BROWSE_SCRIPT_SOURCE = 'src/site/client/browse-filter.ts';

export interface BrowseScript {
  /** Its path from the site's root (no base): scripts/browse-filter.<first 12 hex digits of its SHA-256>.js. */
  path: string;
  bytes: Uint8Array;
}

/**
 * Bundles the script of the project at `repo` (the same source gives the same bytes and name); with `cache` (its
 * folder and the fingerprint of the project's code), the bundle kept there for the same code, if there is one.
 */
export function bundleBrowseScript(repo: string, cache?: { dir: string; code: string }): BrowseScript {
  if (cache === undefined) return bundled(repo).script;
  return scriptOf(cachedBrowseScriptBytes(cache.dir, cache.code, () => bundled(repo).script.bytes));
}

/** The script of these bytes: its path carries their hash. */
function scriptOf(bytes: Uint8Array): BrowseScript {
  return { path: `scripts/browse-filter.${sha256Hex(bytes).slice(0, 12)}.js`, bytes };
}

/** The bundle, and the files it was made from (paths from `repo`). */
function bundled(repo: string): { script: BrowseScript; inputs: string[] } {
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  const { outputFiles, metafile } = buildSync({
    absWorkingDir: repo,
    entryPoints: [BROWSE_SCRIPT_SOURCE],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { script: scriptOf(outputFiles[0]!.contents), inputs: Object.keys(metafile.inputs) };
}

/** What a source file looked like when the dev bundle was made: its modification time and size, or absent. */
const stamp = (file: string) => {
  const found = statSync(file, { throwIfNoEntry: false });
  return found === undefined ? 'absent' : `${found.mtimeMs} ${found.size}`;
};

/** The last dev bundle per project, with its source files' stamps. */
const devBundles = new Map<string, { script: BrowseScript; stamps: [file: string, stamp: string][] }>();

/**
 * The script for `astro dev`, which asks for it with every listing page: the last bundle while none of its source
 * files changed (by modification time and size: a dev server's check, not the build's), else bundled again.
 */
export function devBrowseScript(repo: string): BrowseScript {
  const last = devBundles.get(repo);
  if (last !== undefined && last.stamps.every(([file, was]) => stamp(file) === was)) return last.script;
  const { script, inputs } = bundled(repo);
  devBundles.set(repo, { script, stamps: inputs.map((input) => resolve(repo, input)).map((file) => [file, stamp(file)]) });
  return script;
}
