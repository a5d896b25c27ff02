/**
 * The search page's ranking across bundles (SEARCH_RANKING in src/core/publish/search-bundles.ts), with the real
 * Pagefind: a bundle without the query's exact word falls back to a shorter word that the query starts with ("5422"
 * matches "542"), and Pagefind ranks each bundle with its own statistics, so with its default ranking that near-match
 * in a large bundle outranks the exact match in the small last bundle. The page's ranking puts the exact match first.
 * Proportions as in the real layout's worst case: a chunk 16 units long beside a last bundle of about one unit.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SEARCH_RANKING, searchBundleDirs, searchBundleSizes } from '../../src/core/publish/search-bundles.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const FULL = 1024; // unit 32
const COUNT = 549; // 512 + 37
const NODE = resolve(REPO_ROOT, 'node_modules/.bin/node');
const id = (n: number) => `echo-2026-01-01-${String(n).padStart(6, '0')}`;
/** Page 5 is "Echo 542", the last page (in the small last bundle) "Echo 5422", the others other numbers. */
const heading = (n: number) => (n === 5 ? 542 : n === COUNT ? 5422 : 1000 + n);

function site(): string {
  const dir = tempDir('search-ranking-');
  for (let n = 1; n <= COUNT; n++) {
    mkdirSync(join(dir, 'records', id(n)), { recursive: true });
    writeFileSync(
      join(dir, 'records', id(n), 'index.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Record ${n}</title></head><body><section data-pagefind-body>` +
        `<h4>Echo ${heading(n)}: what I understood</h4><p>Words about manifests and registry hashes, number ${n % 7}.</p></section></body></html>`,
    );
  }
  const [first, ...more] = searchBundleDirs(COUNT, FULL).map((d) => `/${d}`);
  const attr = (v: unknown) => JSON.stringify(v).replaceAll('"', '&quot;');
  mkdirSync(join(dir, 'search'));
  writeFileSync(join(dir, 'search', 'index.html'), `<form data-pagefind-url="${first}pagefind.js" data-merge-bundles="${attr(more)}" data-ranking="${attr(SEARCH_RANKING)}"></form>`);
  return dir;
}

async function topHits(dir: string, queries: string[], ranking?: object): Promise<(string | null)[]> {
  const args = [resolve(REPO_ROOT, 'scripts/lib/search-queries.ts'), '--site', dir, '--queries', JSON.stringify(queries)];
  const { stdout } = await promisify(execFile)(NODE, ranking ? [...args, '--ranking', JSON.stringify(ranking)] : args);
  return (JSON.parse(stdout) as { queries: { top: string | null }[] }).queries.map((q) => q.top);
}

describe('ranking across search bundles (real Pagefind)', { timeout: 120_000 }, () => {
  it('the exact word in the small last bundle comes first with the page ranking, not with Pagefind default', async () => {
    expect(searchBundleSizes(COUNT, FULL)).toEqual([512, 37]);
    const dir = site();
    await promisify(execFile)(NODE, [resolve(REPO_ROOT, 'scripts/build-search.ts'), '--site', dir, '--no-cache'], {
      env: { ...process.env, SEARCH_SHARD_RECORDS: String(FULL) },
    });
    const queries = ['Echo 5422', 'Echo 542'];
    expect(await topHits(dir, queries)).toEqual([`/records/${id(COUNT)}/`, `/records/${id(5)}/`]);
    // Pagefind's default ranking: the near-match in the large bundle wins (what SEARCH_RANKING is for).
    expect(await topHits(dir, queries, {})).toEqual([`/records/${id(5)}/`, `/records/${id(5)}/`]);
  });
});
