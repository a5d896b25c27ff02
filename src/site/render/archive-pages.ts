/**
 * The site's pages and documents made from the whole archive rather than one record: the home page, the facet pages,
 * the guardian pages, the public index and its shards, the feeds, the sitemaps, llms.txt and llms-full.txt, the log's
 * and the guardian registry's documents, and the browse filters' data.
 *
 * Why not Astro pages: these change with every append (counts, the newest records, the index), and while Astro built
 * them every build had to run `astro build`, whose start and bundling alone are about a quarter of a clean build at
 * 10,000 records. Made here, by plain functions of the records, Astro's own pages read nothing of the archive, so a
 * build whose code and configuration are unchanged keeps Astro's last output (scripts/build.ts).
 *
 * One set of makers, two callers: the build writes every page (archivePages, src/site/build/3-archive-pages.ts),
 * `astro dev` makes the one asked for (archivePageAt, which makes the public index or the sitemaps only for a page of
 * theirs). Each page is made only when asked (make), so the index's shards and the sitemaps are not all held at once.
 */
import type { SiteConfig } from '../../core/config.ts';
import { logDocument } from '../../core/log/publish.ts';
import { guardianPageUrl, guardianRegistryText, GUARDIAN_REGISTRY_PATH } from '../../core/publish/archive-views.ts';
import { llmsTxt } from '../../core/publish/discovery.ts';
import { atomFeed, jsonFeed } from '../../core/publish/feeds.ts';
import { llmsFullTxt } from '../../core/publish/mcp-discovery.ts';
import { publicIndexSteps, type FileSource, type KeptShards, type PublicIndex, type PublishedFile } from '../../core/publish/public-index.ts';
import { runInSlices, runToEnd } from '../../core/util/time-slices.ts';
import { byArchivePath } from '../../core/publish/records.ts';
import { buildSitemap, SITE_PAGES } from '../../core/publish/sitemap.ts';
import { archiveViewsOf, siteLogOf, type SiteRecord } from '../build/2-read-archive.ts';
import { browseRecordsJson } from '../model/browse-records.ts';
import { archiveModelOf } from '../model/site-model.ts';
import { facetDocument } from './facet-page.ts';
import { guardianDocument, guardiansDocument } from './guardian-pages.ts';
import { homeDocument } from './home-page.ts';
import type { SiteFrame } from './page-frame.ts';

/** One page or document: its path from the site's root (a page's file: …/index.html), its media type, its maker. */
export interface ArchivePage {
  path: string;
  type: string;
  make(): string;
  /** A file that holds exactly what make() gives (a kept shard of the public index), to link rather than write. */
  source?: FileSource;
}

export interface ArchivePagesInput {
  /** The archive's validated records, as read (src/site/build/2-read-archive.ts). */
  records: readonly SiteRecord[];
  frame: SiteFrame;
  config: SiteConfig;
  /** The public index's shard size (indexShardBytes, src/core/publish/public-index.ts). */
  shardBytes: number;
  /** An earlier build's shards of the public index, to take those whose records are unchanged (the build cache's). */
  keptShards?: KeptShards;
}

const JSON_TYPE = 'application/json';
const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
const XML = 'application/xml; charset=utf-8';

/** The paths archivePages may give (whatever the archive): for `astro dev`, to know which requests are its own. */
export function isArchivePagePath(path: string): boolean {
  return (
    FIXED_PATHS.has(path) ||
    /^browse\/[^/]+\/index\.html$/.test(path) ||
    /^guardians\/[^/]+\/index\.html$/.test(path) ||
    /^api\/index\/\d+\.json$/.test(path) ||
    /^sitemap-\d+\.xml$/.test(path)
  );
}

const FIXED_PATHS = new Set([
  'index.html',
  'browse/records.json',
  'guardians/index.html',
  GUARDIAN_REGISTRY_PATH.slice(1),
  'api/index.json',
  'api/log.json',
  'feeds/records.atom',
  'feeds/records.json',
  'sitemap.xml',
  'llms.txt',
  'llms-full.txt',
]);

/** A page's source, when its file has one (a kept shard). */
function sourceOf({ source }: PublishedFile): { source?: FileSource } {
  return source === undefined ? {} : { source };
}

/** Every page and document of the site made from the whole archive; `publicIndex`, if made already (archivePagesInSlices). */
export function archivePages(input: ArchivePagesInput, publicIndex?: PublicIndex): ArchivePage[] {
  const { pages, shard, sitemapPart, shards, sitemapParts } = makersOf(input, publicIndex);
  return pages.flatMap((page) =>
    page.path === 'api/index.json'
      ? [page, ...Array.from({ length: shards() }, (_, i) => shard(i)!)]
      : page.path === 'sitemap.xml'
        ? [page, ...Array.from({ length: sitemapParts() }, (_, i) => sitemapPart(i)!)]
        : [page],
  );
}

/** The page or document at `path` (as isArchivePagePath takes it), if the archive has one there. */
export function archivePageAt(input: ArchivePagesInput, path: string): ArchivePage | undefined {
  const { pages, shard, sitemapPart } = makersOf(input);
  const numbered = /^api\/index\/(\d+)\.json$/.exec(path) ?? /^sitemap-(\d+)\.xml$/.exec(path);
  if (numbered === null) return pages.find((page) => page.path === path);
  const page = (path.startsWith('api/') ? shard : sitemapPart)(Number(numbered[1]) - 1);
  return page?.path === path ? page : undefined; // sitemap-01.xml is not sitemap-1.xml
}

/**
 * archivePages, with the public index, the longest step of listing them (2 s at 99,006 records), made in slices of
 * the thread's time (src/core/util/time-slices.ts): the build's main thread hands the page threads their batches
 * meanwhile.
 */
export async function archivePagesInSlices(input: ArchivePagesInput): Promise<ArchivePage[]> {
  return archivePages(input, await runInSlices(publicIndexOf(input)));
}

/** The archive's public index, as steps. */
function publicIndexOf({ records, shardBytes, keptShards }: ArchivePagesInput): Generator<void, PublicIndex> {
  return publicIndexSteps(records, { maxBytes: shardBytes, views: archiveViewsOf(records), ...(keptShards ? { kept: keptShards } : {}) });
}

/**
 * The makers: every page but the index's shards and the sitemap's parts, and those by number (none past the last),
 * with their counts. The public index and the sitemaps are made once, on first use.
 */
function makersOf(input: ArchivePagesInput, made?: PublicIndex) {
  const { records, frame, config } = input;
  const model = archiveModelOf(records);
  const views = archiveViewsOf(records);
  const log = siteLogOf(records);
  const inPathOrder = byArchivePath(records);
  let index = made;
  const publicIndex = () => (index ??= runToEnd(publicIndexOf(input)));
  const sitemapPages = [...SITE_PAGES, ...views.registry.guardians.map((g) => guardianPageUrl(g.guardian_id))];
  let sitemapMade: ReturnType<typeof buildSitemap> | undefined;
  const sitemap = () => (sitemapMade ??= buildSitemap(inPathOrder, config, { pages: sitemapPages }));
  const checkpoint = (log?.signers ?? []).length > 0;
  const verifiers = (log?.signers ?? []).map(({ name, keyId, publicKey, text }) => ({ name, keyId, publicKey, text }));
  const pages: ArchivePage[] = [
    { path: 'index.html', type: HTML, make: () => homeDocument(model, frame) },
    ...model.facetCounts.map((counts) => ({ path: `browse/${counts.facet.key}/index.html`, type: HTML, make: () => facetDocument(counts, frame) })),
    { path: 'browse/records.json', type: JSON_TYPE, make: () => browseRecordsJson(model) },
    { path: 'guardians/index.html', type: HTML, make: () => guardiansDocument(views.registry, frame) },
    ...views.registry.guardians.map((g) => ({ path: `${guardianPageUrl(g.guardian_id).slice(1)}index.html`, type: HTML, make: () => guardianDocument(g, views.registry, frame) })),
    { path: GUARDIAN_REGISTRY_PATH.slice(1), type: JSON_TYPE, make: () => guardianRegistryText(views.registry) },
    { path: 'api/index.json', type: JSON_TYPE, make: () => publicIndex().index.text },
    { path: 'api/log.json', type: JSON_TYPE, make: () => `${JSON.stringify(logDocument(verifiers), null, 2)}\n` },
    // From the records as read, not in path order: the feeds' newest-first order is a total one (newestFirst), and
    // the build's array has it sorted already (newestFirstOrder, for the model), where a copy was sorted again (0.1 s
    // at 100,000 records).
    { path: 'feeds/records.atom', type: 'application/atom+xml; charset=utf-8', make: () => atomFeed(records, config) },
    { path: 'feeds/records.json', type: 'application/feed+json; charset=utf-8', make: () => jsonFeed(records, config) },
    { path: 'sitemap.xml', type: XML, make: () => sitemap().index },
    { path: 'llms.txt', type: TEXT, make: () => llmsTxt(config, { checkpoint }) },
    { path: 'llms-full.txt', type: TEXT, make: () => llmsFullTxt(config, llmsTxt(config, { checkpoint })) },
  ];
  const shards = () => publicIndex().shards.length;
  const sitemapParts = () => sitemap().parts.length;
  const shard = (i: number): ArchivePage | undefined =>
    Number.isInteger(i) && i >= 0 && i < shards() ? { path: `api/index/${i + 1}.json`, type: JSON_TYPE, make: () => publicIndex().shards[i]!.text, ...sourceOf(publicIndex().shards[i]!) } : undefined;
  const sitemapPart = (i: number): ArchivePage | undefined =>
    Number.isInteger(i) && i >= 0 && i < sitemapParts() ? { path: `sitemap-${i + 1}.xml`, type: XML, make: () => sitemap().parts[i]!.text } : undefined;
  return { pages, shard, sitemapPart, shards, sitemapParts };
}
