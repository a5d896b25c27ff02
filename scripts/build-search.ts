/**
 * The search index, after `astro build`: `node scripts/build-search.ts [--site DIR (dist)]`.
 *
 * Indexes the record pages (<site>/records/<id>/index.html: the only pages with data-pagefind-body) with Pagefind,
 * in bundles of at most SEARCH_SHARD_RECORDS pages (src/core/publish/search-bundles.ts says why), one Pagefind process
 * per bundle, so that peak memory is bounded by the bundle size rather than the archive's. Each bundle's pages are
 * hard-linked into a staging folder laid out like the site (so Pagefind computes the same /records/<id>/ URLs), then
 * indexed into <site>/pagefind/, <site>/pagefind-2/, …; the staging folder is removed. Fails (exit 1) when Pagefind
 * fails or the built search page does not list exactly these bundles.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { searchBundleDirs, searchShardRecords } from '../src/core/publish/search-bundles.ts';
import { compareCodePoints } from '../src/core/util/compare.ts';
import { linkOrCopy } from '../src/core/util/link-or-copy.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PAGEFIND = join(REPO, 'node_modules/.bin/pagefind');
const PARALLEL_LINKS = 8;

const { values } = parseArgs({ options: { site: { type: 'string', default: 'dist' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log('Usage: node scripts/build-search.ts [--site DIR (dist)]   (SEARCH_SHARD_RECORDS: record pages per bundle)');
  process.exit(0);
}
const site = resolve(values.site);

function fail(message: string): never {
  console.error(`build-search: ${message}`);
  process.exit(1);
}

/** The ids of the record pages, in code-point order (the order bundles fill in). */
function recordPageIds(): string[] {
  const dir = join(site, 'records');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'index.html')))
    .map((d) => d.name)
    .sort(compareCodePoints);
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

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((ok, ko) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', ko);
    child.on('exit', (code, signal) => (code === 0 ? ok() : ko(new Error(`${cmd} exited with ${signal ?? code}`))));
  });
}

async function stage(ids: readonly string[], into: string): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      mkdirSync(join(into, 'records', id), { recursive: true });
      await linkOrCopy(join(site, 'records', id, 'index.html'), join(into, 'records', id, 'index.html'));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_LINKS, ids.length) }, worker));
}

const ids = recordPageIds();
const perBundle = searchShardRecords();
const dirs = searchBundleDirs(ids.length, perBundle);

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
try {
  for (const [i, dir] of dirs.entries()) {
    const bundleIds = ids.slice(i * perBundle, (i + 1) * perBundle);
    const into = join(staging, String(i + 1));
    mkdirSync(into);
    await stage(bundleIds, into);
    console.log(`build-search: bundle ${i + 1} of ${dirs.length} (/${dir}): ${bundleIds.length} record pages`);
    await run(PAGEFIND, ['--site', into, '--output-path', join(site, dir)]);
    rmSync(into, { recursive: true, force: true });
  }
} catch (err) {
  fail((err as Error).message);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
console.log(`build-search: ${ids.length} record pages indexed in ${dirs.length} bundle${dirs.length === 1 ? '' : 's'}`);
