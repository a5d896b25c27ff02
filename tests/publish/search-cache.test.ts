/**
 * The search index cache's key and entries (src/core/publish/search-cache.ts): the key moves with every input that
 * decides Pagefind's output and with nothing else; an entry is used only when it is whole and its own.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  pagefindEnv,
  pruneSearchCache,
  searchBundleKey,
  storeSearchCacheEntry,
  verifiedSearchCacheEntry,
  type SearchBundleInputs,
} from '../../src/core/publish/search-cache.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const base: SearchBundleInputs = {
  pagefind: { version: 'pagefind 1.6.0', binarySha256: 'a'.repeat(64) },
  options: [],
  env: {},
  dir: 'pagefind-2/',
  staging: 'c'.repeat(64),
  pages: [
    { path: 'records/echo-2026-01-01-000001/index.html', sha256: '1'.repeat(64) },
    { path: 'records/echo-2026-01-01-000002/index.html', sha256: '2'.repeat(64) },
  ],
};

describe('searchBundleKey', () => {
  it('is a SHA-256 that does not depend on the order the pages are listed in', () => {
    expect(searchBundleKey(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(searchBundleKey({ ...base, pages: [...base.pages].reverse() })).toBe(searchBundleKey(base));
  });

  it('changes with each input that decides the output', () => {
    const variants: SearchBundleInputs[] = [
      { ...base, pages: [base.pages[0]!, { ...base.pages[1]!, sha256: '3'.repeat(64) }] }, // a page's bytes
      { ...base, pages: [base.pages[0]!, { ...base.pages[1]!, path: 'records/echo-2026-01-01-000003/index.html' }] }, // its URL
      { ...base, pages: [base.pages[0]!] }, // a page fewer
      { ...base, dir: 'pagefind-3/' },
      { ...base, staging: 'd'.repeat(64) }, // the code that cuts pages for Pagefind
      { ...base, options: ['--force-language', 'en'] },
      { ...base, env: { PAGEFIND_EXCLUDE_SELECTORS: 'nav' } },
      { ...base, pagefind: { ...base.pagefind, version: 'pagefind 1.6.1' } },
      { ...base, pagefind: { ...base.pagefind, binarySha256: 'b'.repeat(64) } },
    ];
    const keys = new Set([searchBundleKey(base), ...variants.map(searchBundleKey)]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it('keys on PAGEFIND_* variables only', () => {
    expect(pagefindEnv({ PAGEFIND_SITE: 'x', HOME: '/root', PATH: '/bin' })).toEqual({ PAGEFIND_SITE: 'x' });
  });
});

describe('search cache entries', () => {
  const root = tempDir('search-cache-');
  const cache = join(root, 'cache');
  const key = searchBundleKey(base);
  const out = join(root, 'out');
  mkdirSync(join(out, 'fragment'), { recursive: true });
  writeFileSync(join(out, 'pagefind.js'), 'js');
  writeFileSync(join(out, 'fragment', 'en_1.pf_fragment'), 'fragment');

  const fresh = async () => {
    rmSync(cache, { recursive: true, force: true });
    await storeSearchCacheEntry(cache, key, out);
    return join(cache, key);
  };
  /** Replaces a file of an entry by a new inode (entry files may be hard links to a site's files). */
  const rewrite = (path: string, text: string) => {
    unlinkSync(path);
    writeFileSync(path, text);
  };

  it('a stored entry verifies and holds the output byte for byte', async () => {
    const entry = await fresh();
    const found = await verifiedSearchCacheEntry(cache, key);
    expect(found).toBe(join(entry, 'out'));
    expect(readFileSync(join(found!, 'fragment', 'en_1.pf_fragment'), 'utf8')).toBe('fragment');
  });

  it('a damaged, incomplete, padded or foreign entry is not used', async () => {
    const damage: [string, (entry: string) => void][] = [
      ['a changed file', (e) => rewrite(join(e, 'out', 'pagefind.js'), 'jS')],
      ['a missing file', (e) => unlinkSync(join(e, 'out', 'fragment', 'en_1.pf_fragment'))],
      ['an extra file', (e) => writeFileSync(join(e, 'out', 'extra.js'), '')],
      ['no manifest', (e) => unlinkSync(join(e, 'manifest.json'))],
      ['a manifest that is not JSON', (e) => rewrite(join(e, 'manifest.json'), '{')],
      ['another key in the manifest', (e) => rewrite(join(e, 'manifest.json'), readFileSync(join(e, 'manifest.json'), 'utf8').replace(key, 'f'.repeat(64)))],
      ['another format', (e) => rewrite(join(e, 'manifest.json'), readFileSync(join(e, 'manifest.json'), 'utf8').replace(/"format": \d+/, '"format": 0'))],
      ['no output folder', (e) => rmSync(join(e, 'out'), { recursive: true })],
    ];
    for (const [what, act] of damage) {
      act(await fresh());
      expect(await verifiedSearchCacheEntry(cache, key), what).toBeUndefined();
    }
    // An entry stored under another key's name is foreign to this key: a whole, valid entry copied there (a missing
    // folder would be refused before its manifest's key is ever compared).
    await fresh();
    cpSync(join(cache, key), join(cache, 'e'.repeat(64)), { recursive: true });
    expect(await verifiedSearchCacheEntry(cache, 'e'.repeat(64))).toBeUndefined();
  });

  it('pruning keeps exactly the named entries', async () => {
    await fresh();
    mkdirSync(join(cache, `${'c'.repeat(64)}.partial-1`));
    mkdirSync(join(cache, 'd'.repeat(64)));
    pruneSearchCache(cache, new Set([key]));
    expect(await verifiedSearchCacheEntry(cache, key)).toBeDefined();
    pruneSearchCache(cache, new Set());
    expect(await verifiedSearchCacheEntry(cache, key)).toBeUndefined();
  });
});
