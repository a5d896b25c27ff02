/**
 * The site's URLs under the configured base, and the archive's records for `astro dev` (/records/<id>.json reads them
 * there). Astro's pages read nothing else of the archive: the pages made from it are the site build's
 * (src/site/render/archive-pages.ts), and the search page's filters come from the schema (search-filters.ts).
 */
import { byArchivePath } from '../../core/publish/records.ts';
import { readSiteArchive, type SiteRecord } from '../build/2-read-archive.ts';
import { sitePaths, type SitePaths } from './paths.ts';

export type RecordEntry = SiteRecord;

/** Every record in archive-path order (the public index's order), read afresh on each call, so edits show up. */
export async function archiveRecords(): Promise<readonly RecordEntry[]> {
  return byArchivePath(await readSiteArchive());
}

// ---- URLs (base-aware, so the site can live under a sub-path; src/site/model/paths.ts) ----

export const paths: SitePaths = sitePaths(import.meta.env.BASE_URL);

/** A site path ("records/x/") under the configured base. */
export const sitePath = paths.site;

/** /browse/ pages: everything, or one facet value; its front page, or a numbered page (paths.ts). */
export const browsePath = paths.browse;
