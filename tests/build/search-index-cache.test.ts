/**
 * The incremental search index (scripts/build-search.ts with its cache) against the real Pagefind: after a changed
 * record, an appended record (one that grows the last bundle, one that carries, one that completes a full bundle) or
 * a damaged cache entry, the index built with the cache is byte-identical, file for file, to a clean build of the
 * same site, and Pagefind re-ran only for the bundles whose pages changed.
 * The sites are small hand-made ones laid out as the real build lays them out (record pages with data-pagefind-body,
 * meta and filters; the search page listing the bundles), so each Pagefind run takes a fraction of a second.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { searchBundleDirs, searchBundleSizes } from '../../src/core/publish/search-bundles.ts';
import { searchStagedPage } from '../../scripts/lib/search-staged-page.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** Full bundles of 64 pages, so the tail's unit is 2 pages (src/core/publish/search-bundles.ts): 26 pages are [16, 8, 2]. */
const PER_BUNDLE = 64;
const root = tempDir('search-index-cache-');
const cache = join(root, 'cache');

const id = (n: number) => `echo-2026-0${1 + (n % 3)}-01-${String(n).padStart(6, '0')}`;

function recordPage(n: number, words = `distinctive${n} phrase about manifests and line endings`): string {
  const lang = n % 7 === 0 ? 'de' : 'en';
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Record ${n}</title></head><body><main>` +
    `<h1>Record ${n}</h1><section data-pagefind-body><div hidden data-pagefind-ignore>` +
    `<span data-pagefind-meta="title">Record ${n}</span><span data-pagefind-meta="id">${id(n)}</span><span data-pagefind-filter="record_kind">kind ${n % 3}</span></div>` +
    `<p>${words}</p></section></main></body></html>`
  );
}

/** A built site of `count` record pages (the ones in `pages` overriding the default text). */
function site(name: string, count: number, pages: Record<number, string> = {}): string {
  const dir = join(root, name);
  for (let n = 1; n <= count; n++) {
    mkdirSync(join(dir, 'records', id(n)), { recursive: true });
    writeFileSync(join(dir, 'records', id(n), 'index.html'), recordPage(n, pages[n]));
  }
  const [first, ...more] = searchBundleDirs(count, PER_BUNDLE).map((d) => `/${d}`);
  mkdirSync(join(dir, 'search'), { recursive: true });
  const merge = JSON.stringify(more).replaceAll('"', '&quot;');
  writeFileSync(join(dir, 'search', 'index.html'), `<form data-search-form data-pagefind-url="${first}pagefind.js" data-merge-bundles="${merge}"></form>`);
  return dir;
}

function buildSearch(dir: string, args: string[] = [], env: Record<string, string> = {}): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      resolve(REPO_ROOT, 'node_modules/.bin/node'),
      [resolve(REPO_ROOT, 'scripts/build-search.ts'), '--site', dir, '--cache-dir', cache, ...args],
      { cwd: REPO_ROOT, env: { ...process.env, SEARCH_SHARD_RECORDS: String(PER_BUNDLE), ECHO_ARCHIVE_NO_CACHE: '', ...env } },
      (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stdout}${stderr}`)) : done(stdout)),
    );
  });
}

/** Every file under the site's pagefind folders, path → bytes (as base64, so a difference prints readably). */
function searchOutput(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const bundle of readdirSync(dir).filter((n) => /^pagefind(-\d+)?$/.test(n))) {
    for (const d of readdirSync(join(dir, bundle), { recursive: true, withFileTypes: true })) {
      if (d.isFile()) files.set(relative(dir, join(d.parentPath, d.name)), readFileSync(join(d.parentPath, d.name)).toString('base64'));
    }
  }
  return new Map([...files].sort(([x], [y]) => (x < y ? -1 : 1)));
}

/** The bundles the log says were indexed (rather than taken from the cache). */
const indexed = (log: string) => [...log.matchAll(/bundle \d+ of \d+ \(\/(\S+)\): \d+ record pages$/gm)].map((m) => m[1]);
const reused = (log: string) => [...log.matchAll(/bundle \d+ of \d+ \(\/(\S+)\): \d+ record pages, unchanged: from the cache$/gm)].map((m) => m[1]);

/** Builds `name` clean in a copy (no cache involved) and returns its search output. */
async function cleanOutput(dir: string): Promise<Map<string, string>> {
  const copy = `${dir}-clean`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true });
  await buildSearch(copy, ['--no-cache']);
  return searchOutput(copy);
}

describe('the search index with its cache (scripts/build-search.ts, real Pagefind)', { timeout: 120_000 }, () => {
  const work = site('site', 26);

  it('Pagefind is deterministic: two clean builds of one site are byte-identical', async () => {
    const a = await cleanOutput(work);
    const b = await cleanOutput(work);
    expect(a.size).toBeGreaterThan(10);
    expect(b).toEqual(a);
  });

  it('staging only what Pagefind reads (the <html> tag and the data-pagefind-body element) gives the index of the whole pages', async () => {
    const staged = `${work}-staged`;
    const whole = `${work}-whole`;
    for (const dir of [staged, whole]) cpSync(work, dir, { recursive: true });
    // One bundle (26 pages at 1,000 per full bundle), so Pagefind runs once over the same pages either way.
    writeFileSync(join(staged, 'search', 'index.html'), '<form data-search-form data-pagefind-url="/pagefind/pagefind.js" data-merge-bundles="[]"></form>');
    await buildSearch(staged, ['--no-cache'], { SEARCH_SHARD_RECORDS: '1000' });
    await promisify(execFile)(resolve(REPO_ROOT, 'node_modules/.bin/pagefind'), ['--site', whole, '--output-path', join(whole, 'pagefind')], { cwd: root });
    expect(searchStagedPage(readFileSync(join(work, 'records', id(1), 'index.html'), 'utf8'))).toBeDefined(); // cut, not whole
    const output = searchOutput(staged);
    expect(output.size).toBeGreaterThan(10);
    expect(output).toEqual(searchOutput(whole));
  });

  it('a first build indexes every bundle and fills the cache; a second takes every bundle from it, identical', async () => {
    const first = await buildSearch(work);
    expect(indexed(first)).toEqual(['pagefind/', 'pagefind-2/', 'pagefind-3/']);
    expect(readdirSync(cache)).toHaveLength(3);
    const second = await buildSearch(work);
    expect(reused(second)).toEqual(['pagefind/', 'pagefind-2/', 'pagefind-3/']);
    expect(indexed(second)).toEqual([]);
    expect(searchOutput(work)).toEqual(await cleanOutput(work));
  });

  it('the layout: 26 pages at 64 per full bundle are tail chunks of 16 and 8 and a last bundle of 2', () => {
    expect(searchBundleSizes(26, PER_BUNDLE)).toEqual([16, 8, 2]);
  });

  it('a changed record page re-indexes its bundle only, and the result equals a clean build', async () => {
    writeFileSync(join(work, 'records', id(20), 'index.html'), recordPage(20, 'an amended text about quasars'));
    const log = await buildSearch(work);
    expect(indexed(log)).toEqual(['pagefind-2/']);
    expect(reused(log)).toEqual(['pagefind/', 'pagefind-3/']);
    expect(searchOutput(work)).toEqual(await cleanOutput(work));
  });

  it('an appended record (no carry: the last bundle grows) re-indexes the last bundle only, and the result equals a clean build', async () => {
    expect(searchBundleSizes(27, PER_BUNDLE)).toEqual([16, 8, 3]);
    const appended = site('appended', 27, { 20: 'an amended text about quasars' });
    cpSync(join(work, 'pagefind'), join(appended, 'pagefind'), { recursive: true }); // a stale index, replaced
    const log = await buildSearch(appended);
    expect(indexed(log)).toEqual(['pagefind-3/']);
    expect(reused(log)).toEqual(['pagefind/', 'pagefind-2/']);
    const output = searchOutput(appended);
    expect(output).toEqual(await cleanOutput(appended));
    // The cache now holds this build's three bundles and nothing else.
    expect(readdirSync(cache)).toHaveLength(3);
  });

  it('a damaged cache entry is not trusted: its bundle is indexed again, and the result equals a clean build', async () => {
    const dir = join(root, 'appended');
    const fragments = join(cache, readdirSync(cache).sort()[0]!, 'out', 'fragment');
    const victim = join(fragments, readdirSync(fragments)[0]!);
    const bytes = readFileSync(victim);
    unlinkSync(victim); // a new inode: the site's hard-linked copy stays as it was
    bytes[0] = bytes[0]! ^ 1;
    writeFileSync(victim, bytes);
    const log = await buildSearch(dir);
    expect(indexed(log)).toHaveLength(1);
    expect(reused(log)).toHaveLength(2);
    expect(searchOutput(dir)).toEqual(await cleanOutput(dir));
    // The entry was replaced by a whole one: the next build takes all three from the cache.
    expect(indexed(await buildSearch(dir))).toEqual([]);
  });

  it('--no-cache and ECHO_ARCHIVE_NO_CACHE=1 index every bundle and leave the cache as it was', async () => {
    const dir = join(root, 'appended');
    const before = readdirSync(cache).sort();
    for (const [args, env] of [[['--no-cache'], {}], [[], { ECHO_ARCHIVE_NO_CACHE: '1' }]] as const) {
      const log = await buildSearch(dir, [...args], env);
      expect(indexed(log)).toEqual(['pagefind/', 'pagefind-2/', 'pagefind-3/']);
      expect(log).toMatch(/without the cache/);
    }
    expect(readdirSync(cache).sort()).toEqual(before);
    expect(searchOutput(dir)).toEqual(await cleanOutput(dir));
  });
  it('an append that carries (29 → 30 pages: [16, 8, 2, 3] → [16, 8, 4, 2]) re-indexes the merged chunk and the last bundle only, and equals a clean build', async () => {
    expect(searchBundleSizes(29, PER_BUNDLE)).toEqual([16, 8, 2, 3]);
    expect(searchBundleSizes(30, PER_BUNDLE)).toEqual([16, 8, 4, 2]);
    const before = await buildSearch(site('carry-before', 29));
    expect(reused(before)).toContain('pagefind/'); // pages 1–16 as in the builds above
    const dir = site('carry', 30);
    const log = await buildSearch(dir);
    expect(indexed(log)).toEqual(['pagefind-3/', 'pagefind-4/']);
    expect(reused(log)).toEqual(['pagefind/', 'pagefind-2/']);
    expect(searchOutput(dir)).toEqual(await cleanOutput(dir));
    expect(readdirSync(cache)).toHaveLength(4);
  });

  it('an append that completes a full bundle (65 → 66 pages) re-indexes it and the last bundle, the next append only the last bundle; both equal a clean build', async () => {
    expect(searchBundleSizes(65, PER_BUNDLE)).toEqual([32, 16, 8, 4, 2, 3]);
    expect(searchBundleSizes(66, PER_BUNDLE)).toEqual([64, 2]);
    await buildSearch(site('full-before', 65));
    const full = site('full', 66);
    const log = await buildSearch(full);
    expect(indexed(log)).toEqual(['pagefind/', 'pagefind-2/']);
    expect(searchOutput(full)).toEqual(await cleanOutput(full));
    const next = site('full-next', 67);
    const nextLog = await buildSearch(next);
    expect(indexed(nextLog)).toEqual(['pagefind-2/']);
    expect(reused(nextLog)).toEqual(['pagefind/']);
    expect(searchOutput(next)).toEqual(await cleanOutput(next));
  });
});
