/**
 * Reading the archive for pages: the records once per build in the two stable orders, the whole-archive model the
 * listing pages share, and the site's URLs under the configured base.
 */
import { guardianPageUrl, type ArchiveViews } from '../../core/publish/archive-views.ts';
import { SITE_PAGES } from '../../core/publish/sitemap.ts';
import { buildPublicIndex, indexShardBytes, type PublicIndex } from '../../core/publish/public-index.ts';
import { byArchivePath } from '../../core/publish/records.ts';
import { archiveViewsOf, handedOverArchive, readSiteArchive, type SiteRecord } from '../build/2-read-archive.ts';
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

/**
 * The guardian registry and classification views of the archive (src/core/publish/archive-views.ts): the same
 * derivation the record pages read, once per build (keyed by the records the integration handed over).
 */
export async function archiveViews(): Promise<ArchiveViews> {
  const handed = handedOverArchive();
  if (handed !== undefined) return archiveViewsOf(handed);
  return archiveViewsOf(await archiveRecords());
}

/** The sitemap's fixed pages and each guardian's page (/guardians/<guardian_id>/), before the record pages. */
export async function sitemapPages(): Promise<string[]> {
  return [...SITE_PAGES, ...(await archiveViews()).registry.guardians.map((g) => guardianPageUrl(g.guardian_id))];
}

let model: Promise<ArchiveModel> | undefined;

/**
 * Everything the listing, home and search pages need about the whole archive (src/site/model/site-model.ts): the model
 * of the records the integration read, which it derived already; else derived here once per build (astro dev: on
 * every request).
 */
export function archiveModel(): Promise<ArchiveModel> {
  const handed = handedOverArchive();
  if (handed !== undefined) return Promise.resolve(archiveModelOf(handed));
  const build = async (): Promise<ArchiveModel> => archiveModelOf(await archiveRecords());
  if (import.meta.env.ECHO_DEV_SERVER) return build();
  return (model ??= build());
}

let index: Promise<Pick<PublicIndex, 'index' | 'shards'>> | undefined;

/**
 * The public index (/api/index.json and its shards, src/core/publish/public-index.ts), built once per build: both
 * routes are cut from it. Only the published texts are kept, not the 100,000s of entries they were written from.
 */
export function publicIndex(): Promise<Pick<PublicIndex, 'index' | 'shards'>> {
  const build = async () => {
    const { index, shards } = buildPublicIndex(await archiveRecords(), { maxBytes: indexShardBytes(), views: await archiveViews() });
    return { index, shards };
  };
  if (import.meta.env.ECHO_DEV_SERVER) return build();
  return (index ??= build());
}

// ---- URLs (base-aware, so the site can live under a sub-path; src/site/model/paths.ts) ----

export const paths: SitePaths = sitePaths(import.meta.env.BASE_URL);

/** A site path ("records/x/") under the configured base. */
export const sitePath = paths.site;

/** /browse/ pages: everything, or one facet value; its front page, or a numbered page (paths.ts). */
export const browsePath = paths.browse;
