/**
 * After `npm run build`: checks the published index against the published raw records and pages in dist/.
 *   npm run check:published [-- DIST]
 * Every index entry's sha256 must be the SHA-256 of the bytes at its url, its page must be a built page, every raw
 * record in dist/records/ must have an entry, every shard of a sharded index must have the hash its manifest gives,
 * and every URL of the sitemap must be a page of dist/ (URLs are mapped to files by their path after the base URL);
 * the transparency log under dist/log/ must agree with itself, its checkpoint and the index's leaf_index values.
 * Exit 0 ok, 1 not.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { basePathOf, siteConfig } from '../src/core/config.ts';
import { checkPublishedLog, type IndexLeafRef } from '../src/core/log/published-check.ts';

const dist = resolve(process.argv[2] ?? 'dist');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const problems: string[] = [];
const file = (url: string) => join(dist, ...url.split('/').filter(Boolean).map(decodeURIComponent));
/** The site's path under its host (SITE_URL's path, e.g. /echo-archive/ on a GitHub Pages project site): dist/ is its root. */
const basePath = basePathOf(siteConfig().baseUrl);

interface Entry extends IndexLeafRef {
  id: string;
  url: string;
  page: string;
  sha256: string;
}

/** The file a page URL is served from (a URL ending in / is its folder's index.html). */
const pageFile = (url: string) => {
  const path = new URL(url, 'http://site.invalid/').pathname;
  return path.endsWith('/') ? join(file(path), 'index.html') : file(path);
};

const index = JSON.parse(readFileSync(join(dist, 'api/index.json'), 'utf8'));
let entries: Entry[];
if (Array.isArray(index.shards)) {
  entries = [];
  for (const shard of index.shards as { url: string; sha256: string; records: number }[]) {
    const bytes = readFileSync(file(shard.url));
    if (sha256(bytes) !== shard.sha256) problems.push(`${shard.url}: sha256 differs from the manifest`);
    const doc = JSON.parse(bytes.toString('utf8'));
    if (doc.records.length !== shard.records) problems.push(`${shard.url}: ${doc.records.length} records, manifest says ${shard.records}`);
    entries.push(...doc.records);
  }
} else {
  entries = index.records;
}
if (entries.length !== index.record_count) problems.push(`record_count ${index.record_count}, but ${entries.length} entries`);

for (const e of entries) {
  const path = file(e.url);
  if (!existsSync(path)) problems.push(`${e.id}: ${e.url} is not in ${dist}`);
  else if (sha256(readFileSync(path)) !== e.sha256) problems.push(`${e.id}: ${e.url} does not hash to the index's sha256`);
  if (!existsSync(pageFile(e.page))) problems.push(`${e.id}: its page ${e.page} is not in ${dist}`);
}
const listed = new Set(entries.map((e) => file(e.url)));
for (const name of readdirSync(join(dist, 'records'))) {
  if (name.endsWith('.json') && !listed.has(join(dist, 'records', name))) problems.push(`records/${name} has no index entry`);
}

// Every sitemap URL is a built page (a sitemap index's parts are checked in turn).
const sitemapFiles = ['sitemap.xml'];
let pages = 0;
for (let i = 0; i < sitemapFiles.length; i++) {
  const xml = readFileSync(join(dist, sitemapFiles[i]!), 'utf8');
  const isIndex = xml.includes('<sitemapindex');
  for (const [, loc] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const url = loc!.replaceAll('&amp;', '&');
    if (isIndex) {
      const path = new URL(url).pathname;
      sitemapFiles.push(path.slice(path.lastIndexOf('/') + 1));
      continue;
    }
    pages++;
    const path = new URL(url).pathname;
    const underBase = path.startsWith(basePath) ? `/${path.slice(basePath.length)}` : path;
    if (!existsSync(pageFile(underBase))) problems.push(`sitemap: ${loc} is not a page of ${dist}`);
  }
}

// The transparency log, when the site publishes one: tiles, entries, checkpoint and leaf indexes agree.
if (existsSync(join(dist, 'log'))) {
  const logDoc = existsSync(join(dist, 'api/log.json')) ? JSON.parse(readFileSync(join(dist, 'api/log.json'), 'utf8')) : undefined;
  problems.push(...checkPublishedLog(join(dist, 'log'), logDoc, entries));
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`✖ ${problems.length} problem(s) in ${dist}`);
  process.exit(1);
}
console.log(
  `✓ ${entries.length} index entries match the raw records and pages in ${dist}${index.shards ? ` (${index.shards.length} shards)` : ''}; ` +
    `the sitemap's ${pages} pages exist`,
);
