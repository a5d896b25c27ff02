/**
 * The search index, after `astro build`: `node scripts/build-search.ts [--site DIR (dist)] [--no-cache] [--cache-dir DIR]`.
 *
 * Indexes the record pages (<site>/records/<id>/index.html: the only pages with data-pagefind-body) with Pagefind,
 * in bundles of at most SEARCH_SHARD_RECORDS pages laid out as src/core/publish/search-bundles.ts says (full bundles,
 * then a tail of smaller chunks), one Pagefind process per bundle, so that peak memory is bounded by the bundle size
 * rather than the archive's. Each bundle's pages are staged in a folder laid out like the site (so Pagefind computes
 * the same /records/<id>/ URLs), each cut to what Pagefind reads of it (its <html> tag and its data-pagefind-body
 * element: scripts/lib/search-staged-page.ts), then indexed into <site>/pagefind/, <site>/pagefind-2/, …; the
 * staging folder is removed. Fails (exit 1) when Pagefind
 * fails or the built search page does not list exactly these bundles.
 *
 * Incremental: a bundle whose cache key (src/core/publish/search-cache.ts: its pages' bytes, the staging code,
 * Pagefind, the options) has a whole entry in the cache is hard-linked from there instead of indexed; Pagefind runs
 * only for the others, and their output is stored. Appending a record changes only the last bundle, of
 * SEARCH_SHARD_RECORDS / 32 to / 16 pages, and once in SEARCH_SHARD_RECORDS / 32 appends the one before it too
 * (search-bundles.ts). After a build the cache holds exactly its bundles. --no-cache (or ECHO_ARCHIVE_NO_CACHE=1)
 * indexes everything and leaves the cache alone.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { searchBundlesOf, searchShardRecords } from '../src/core/publish/search-bundles.ts';
import {
  defaultSearchCacheDir,
  fileSha256,
  filesSha256,
  pagefindEnv,
  placeFiles,
  pruneSearchCache,
  searchBundleKey,
  storeSearchCacheEntry,
  verifiedSearchCacheEntry,
} from '../src/core/publish/search-cache.ts';
import { noCacheFromEnv, NO_CACHE_ENV } from '../src/core/publish/build-cache.ts';
import { linkOrCopySync } from '../src/core/util/link-or-copy.ts';
import { searchStagedPage } from './lib/search-staged-page.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PAGEFIND = join(REPO, 'node_modules/.bin/pagefind');
const STAGED_PAGE_CODE = join(REPO, 'scripts/lib/search-staged-page.ts');
/** Pagefind's options besides --site and --output-path (part of every cache key). */
const PAGEFIND_OPTIONS: readonly string[] = [];

const { values } = parseArgs({
  options: {
    site: { type: 'string', default: 'dist' },
    'no-cache': { type: 'boolean', default: false },
    'cache-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(`Usage: node scripts/build-search.ts [--site DIR (dist)] [--no-cache] [--cache-dir DIR]

Indexes the record pages of a built site with Pagefind, in bundles of at most SEARCH_SHARD_RECORDS pages (default
20000: full bundles, then a tail of smaller chunks, src/core/publish/search-bundles.ts).
A bundle whose pages, Pagefind and options are unchanged is taken from the cache instead of re-indexed
(--cache-dir, default node_modules/.cache/echo-archive/search/). --no-cache or ${NO_CACHE_ENV}=1 index every
bundle afresh and leave the cache alone.`);
  process.exit(0);
}
const site = resolve(values.site);
const useCache = !values['no-cache'] && !noCacheFromEnv();
const cacheDir = resolve(values['cache-dir'] ?? defaultSearchCacheDir(REPO));

function fail(message: string): never {
  console.error(`build-search: ${message}`);
  process.exit(1);
}

/** The ids of the record pages (searchBundlesOf puts them in the order bundles fill in). */
function recordPageIds(): string[] {
  const dir = join(site, 'records');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'index.html')))
    .map((d) => d.name);
}

/** The bundles the built search page loads and merges (its data attributes, see src/pages/search.astro). */
function bundlesOfSearchPage(): string[] {
  const page = join(site, 'search', 'index.html');
  if (!existsSync(page)) fail(`${page} is missing: run astro build first`);
  const html = readFileSync(page, 'utf8');
  const attr = (name: string) => /* Astro quotes attribute values with " and escapes them as entities */ {
    const m = new RegExp(`${name}="([^"]*)"`).exec(html);
    if (!m) fail(`the search page has no ${name} attribute`);
    return m[1]!.replaceAll('&quot;', '"').replaceAll('&#34;', '"').replaceAll('&amp;', '&');
  };
  return [attr('data-pagefind-url').replace(/pagefind\.js$/, ''), ...(JSON.parse(attr('data-merge-bundles')) as string[])];
}

function run(cmd: string, args: string[], cwd: string): Promise<void> {
  return new Promise((ok, ko) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', ko);
    child.on('exit', (code, signal) => (code === 0 ? ok() : ko(new Error(`${cmd} exited with ${signal ?? code}`))));
  });
}

const pagePath = (id: string) => `records/${id}/index.html`;

/**
 * Stages each page under `into`, laid out like the site (so Pagefind computes the same URLs), as what Pagefind reads
 * of it: the page cut to its <html> tag and its data-pagefind-body element (scripts/lib/search-staged-page.ts: the
 * same index, a quarter less of Pagefind's CPU), or the page itself (hard-linked) when it is of another shape or its
 * bytes are not clean UTF-8.
 */
function stage(ids: readonly string[], into: string): void {
  for (const id of ids) {
    const page = join(site, pagePath(id));
    const target = join(into, pagePath(id));
    mkdirSync(dirname(target), { recursive: true });
    const html = readFileSync(page, 'utf8');
    const staged = html.includes('\uFFFD') ? undefined : searchStagedPage(html);
    if (staged === undefined) linkOrCopySync(page, target);
    else writeFileSync(target, staged);
  }
}

/** The Pagefind that runs: its version line and the SHA-256 of its binary (the npm wrapper names it with --verbose). */
async function pagefindIdentity(): Promise<{ version: string; binarySha256: string }> {
  const { stdout } = await promisify(execFile)(PAGEFIND, ['--version', '--verbose']);
  const binary = /Running the executable at (.+)$/m.exec(stdout)?.[1]?.trim();
  const version = stdout.split('\n').find((l) => /^pagefind\S* \d/.test(l))?.trim();
  if (!binary || !version) fail(`cannot tell which Pagefind runs (pagefind --version --verbose said ${JSON.stringify(stdout)})`);
  return { version, binarySha256: await fileSha256(binary) };
}

const ids = recordPageIds();
const perBundle = searchShardRecords();
const bundles = searchBundlesOf(ids, perBundle);
const dirs = bundles.map((b) => b.dir);

// The search page was built from the same rule; a mismatch (another SEARCH_SHARD_RECORDS, a stale dist) would leave
// records unsearchable, so it stops the build.
const listed = bundlesOfSearchPage();
if (listed.length !== dirs.length || !listed.every((url, i) => url.endsWith(`/${dirs[i]}`))) {
  fail(
    `the search page lists the bundles ${JSON.stringify(listed)}, but ${ids.length} record pages in bundles of ${perBundle} make ${JSON.stringify(dirs)}: ` +
      'build the site and its search index with the same SEARCH_SHARD_RECORDS',
  );
}

for (const name of readdirSync(site)) if (/^pagefind(-\d+)?$/.test(name)) rmSync(join(site, name), { recursive: true, force: true });

if (ids.length === 0) {
  // Pagefind refuses to build an empty index; the search page says that search is unavailable.
  console.log('build-search: the archive has no records: no search index');
  process.exit(0);
}

const staging = mkdtempSync(join(dirname(site), '.search-staging-'));
const used = new Set<string>();
let reused = 0;
try {
  const pagefind = useCache ? await pagefindIdentity() : undefined;
  // The key hashes whole pages (cheaper than cutting them all on every build) and the code that cuts them.
  const stagingCode = useCache ? await fileSha256(STAGED_PAGE_CODE) : '';
  for (const [i, { dir, ids: bundleIds }] of bundles.entries()) {
    const label = `build-search: bundle ${i + 1} of ${bundles.length} (/${dir}): ${bundleIds.length} record pages`;
    const output = join(site, dir);
    let key: string | undefined;
    if (pagefind) {
      const hashes = filesSha256(bundleIds.map((id) => join(site, pagePath(id))));
      const pages = bundleIds.map((id, i) => ({ path: pagePath(id), sha256: hashes[i]! }));
      key = searchBundleKey({ pagefind, options: PAGEFIND_OPTIONS, env: pagefindEnv(), dir, staging: stagingCode, pages });
      used.add(key);
      const cached = verifiedSearchCacheEntry(cacheDir, key);
      if (cached) {
        placeFiles(cached, output);
        reused++;
        console.log(`${label}, unchanged: from the cache`);
        continue;
      }
    }
    const into = join(staging, String(i + 1));
    mkdirSync(into);
    stage(bundleIds, into);
    console.log(label);
    // Run where there is no pagefind.yml/json/toml: the options are exactly PAGEFIND_OPTIONS and PAGEFIND_* (keyed).
    await run(PAGEFIND, ['--site', into, '--output-path', output, ...PAGEFIND_OPTIONS], staging);
    rmSync(into, { recursive: true, force: true });
    if (key) storeSearchCacheEntry(cacheDir, key, output);
  }
  if (useCache) pruneSearchCache(cacheDir, used);
} catch (err) {
  fail((err as Error).message);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
const cacheNote = useCache ? ` (${reused} from the cache, ${bundles.length - reused} indexed)` : ' (without the cache)';
console.log(`build-search: ${ids.length} record pages indexed in ${bundles.length} bundle${bundles.length === 1 ? '' : 's'}${cacheNote}`);
