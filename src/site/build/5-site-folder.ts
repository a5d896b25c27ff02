/**
 * The site's folder: where a build places the record pages, raw files, listing pages, log and search index as it
 * makes them, and where Astro's own files join them at the end (src/site/build/integration.ts).
 *
 * `npm run build` (scripts/build.ts) takes the previous build's site, set aside as a staging folder, and updates it
 * in place, so that a build writes only the files whose bytes change, removes only those that went away, and still
 * ends byte-identical to a build into an empty folder; the live site is never touched until the whole folder takes
 * its place. A bare `astro build` gets a fresh staging folder, which takes the place of Astro's output when the build
 * is done.
 */
import { cpSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { filesUnder, moveIfChanged, pruneFolder, pruneListed, writeIfChanged, type PathSet, type TreeListing } from '../../core/util/update-in-place.ts';

/** The spare site kept beside the output folder `outDir` (`.dist.spare` for dist/), which the next build updates. */
export function spareFolderOf(outDir: string): string {
  return join(dirname(outDir), `.${basename(outDir)}.spare`);
}

/** The site paths a build placed, as finishSiteFolder takes them: it adds Astro's. */
export interface PlacedPaths extends PathSet {
  add(path: string): void;
}

/** Astro's files: in Astro's output folder, to be moved in; or recorded from an earlier build (path → bytes), to be written. */
export type AstroFiles = { out: string } | { recorded: ReadonlyMap<string, Uint8Array> };

export interface SiteFolder {
  dir: string;
  /** Made by this build (a bare `astro build`): it becomes Astro's output when done. Else the spare, updated in place. */
  own: boolean;
}

/**
 * Ends a build's site folder: Astro's files move in from Astro's output folder (each only if its bytes differ), or
 * are written from the bytes of its recorded output (src/site/build/cache/astro-output.ts: a build without
 * Astro), each only if its bytes change; then everything the build did not place (`files`, the site's paths of what it
 * placed, which gets Astro's added) is removed: found by a walk of the folder now, or in `listing`, the folder as it
 * was listed while the pages were still being placed (listTreeInSlices: whatever was placed since is in `files`). A file of Astro's at a path the
 * build placed is an error: two parts of the site would claim one address. With a folder of its own, the folder then
 * takes the place of Astro's output folder. Returns Astro's files (their site paths), how many of them were written
 * and how many files were removed.
 */
export function finishSiteFolder(site: SiteFolder, astro: AstroFiles, files: PlacedPaths, listing?: TreeListing): { astro: string[]; moved: number; removed: number } {
  const paths = 'out' in astro ? filesUnder(astro.out) : [...astro.recorded.keys()];
  let moved = 0;
  for (const path of paths) {
    if (files.has(path)) throw new Error(`${path}: a page of the archive's would replace a file Astro built there`);
    files.add(path);
    const placed = 'out' in astro ? moveIfChanged(join(astro.out, path), join(site.dir, path)) : writeIfChanged(join(site.dir, path), astro.recorded.get(path)!);
    if (placed) moved++;
  }
  const removed = listing ? pruneListed(site.dir, listing, files) : pruneFolder(site.dir, files);
  if (site.own && 'out' in astro) {
    rmSync(astro.out, { recursive: true, force: true });
    try {
      renameSync(site.dir, astro.out);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      cpSync(site.dir, astro.out, { recursive: true });
    }
  }
  return { astro: paths, moved, removed };
}
