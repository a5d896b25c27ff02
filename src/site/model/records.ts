/**
 * Reading the archive for Astro's pages: the records once per build, the whole-archive model (the search page's
 * filter values: src/site/model/search-filters.ts), and the site's URLs under the configured base. The pages made from
 * the whole archive are not Astro's (src/site/render/archive-pages.ts); /records/<id>.json reads the records in
 * `astro dev` only.
 */
import { byArchivePath } from '../../core/publish/records.ts';
import { handedOverArchive, readSiteArchive, type SiteRecord } from '../build/2-read-archive.ts';
import { archiveModelOf, type ArchiveModel } from './site-model.ts';
import { sitePaths, type SitePaths } from './paths.ts';

export type RecordEntry = SiteRecord;
export type { ArchiveModel };

// The archive is read and validated once per build (not once per page; at 100,000 records that matters), by the
// integration when the build starts (src/site/build/integration.ts). `astro dev` reads it on every request, so edits to
// records show up.
let archive: Promise<RecordEntry[]> | undefined;

/** Every record in archive-path order (the public index's order): what the publishers of src/core/publish take. */
export function archiveRecords(): Promise<readonly RecordEntry[]> {
  const read = async () => byArchivePath(handedOverArchive() ?? (await readSiteArchive()));
  if (import.meta.env.ECHO_DEV_SERVER) return read();
  return (archive ??= read());
}

let model: Promise<ArchiveModel> | undefined;

/**
 * The whole archive's model (src/site/model/site-model.ts), for the search page's filters: the model of the records
 * the integration read, which it derived already; else derived here once per build (astro dev: on every request).
 */
export function archiveModel(): Promise<ArchiveModel> {
  const handed = handedOverArchive();
  if (handed !== undefined) return Promise.resolve(archiveModelOf(handed));
  const build = async (): Promise<ArchiveModel> => archiveModelOf(await archiveRecords());
  if (import.meta.env.ECHO_DEV_SERVER) return build();
  return (model ??= build());
}

// ---- URLs (base-aware, so the site can live under a sub-path; src/site/model/paths.ts) ----

export const paths: SitePaths = sitePaths(import.meta.env.BASE_URL);

/** A site path ("records/x/") under the configured base. */
export const sitePath = paths.site;

/** /browse/ pages: everything, or one facet value; its front page, or a numbered page (paths.ts). */
export const browsePath = paths.browse;
