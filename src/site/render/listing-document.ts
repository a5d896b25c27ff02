/**
 * A listing page's whole HTML document (all records, or one facet value; src/site/model/listing-jobs.ts): its body
 * (browse-view.ts) inside the site's page frame (page-frame.ts), with the browse filters' script, a same-origin file
 * (src/site/build/1-browse-script.ts). The build's threads and `astro dev` call this one function.
 */
import type { ListingJob } from '../model/listing-jobs.ts';
import type { PagePlace } from '../model/listing-pages.ts';
import { browseViewHtml } from './browse-view.ts';
import { attribute } from './escape.ts';
import { pageHtml, type SiteFrame } from './page-frame.ts';

/** `script`: the browse filters' script, its path from the site's root (the base is put before it here). */
export function listingDocument(job: ListingJob, frame: SiteFrame, script: string): string {
  const { paths } = frame;
  const href = (at: PagePlace) => paths.browse(job.listing?.facet, job.listing?.slug, at);
  const meta = { title: job.title, description: job.description, pathname: paths.site(job.path), section: 'browse' as const, wide: true };
  return pageHtml(frame, meta, `${browseViewHtml({ ...job.view, href }, paths)}<script type="module" src="${attribute(paths.site(script))}"></script>`);
}
