/**
 * The site's URLs under a base path ("/" or "/archive/"), as pure functions of that base: the Astro pages get them
 * through src/site/model/records.ts (base from Astro's configuration); the record-page renderer, which also runs outside
 * Astro (worker threads, src/site/build/3-record-pages.ts), is handed the same functions for the same base.
 */
import type { PagePlace } from './listing-pages.ts';

export interface SitePaths {
  /** The base, always ending in "/". */
  base: string;
  /** A site path ("records/x/") under the base. */
  site(path: string): string;
  recordPage(id: string): string;
  recordJson(id: string): string;
  /** /guardians/<guardian_id>/ (DECISIONS 25); /guardians/ without an id. */
  guardian(guardianId?: string): string;
  /**
   * /browse/ pages: everything, or one facet value; its front page (the newest records) without a page, a numbered
   * page (1 holds the oldest records, src/site/model/listing-pages.ts) with its number.
   */
  browse(facet?: string, valueSlug?: string, page?: PagePlace): string;
}

export function sitePaths(base: string): SitePaths {
  const root = base.endsWith('/') ? base : `${base}/`;
  // Called for every link of every page: the regular expression only when there is a leading slash to drop.
  const site = (path: string) => root + (path.charCodeAt(0) === 47 ? path.replace(/^\/+/, '') : path);
  return {
    base: root,
    site,
    recordPage: (id) => site(`records/${encodeURIComponent(id)}/`),
    recordJson: (id) => site(`records/${encodeURIComponent(id)}.json`),
    guardian: (guardianId) => site(guardianId === undefined ? 'guardians/' : `guardians/${encodeURIComponent(guardianId)}/`),
    browse: (facet, valueSlug, page = 'front') => {
      const path = facet && valueSlug ? `browse/${facet}/${valueSlug}/` : 'browse/';
      return site(page === 'front' ? path : `${path}${page}/`);
    },
  };
}
