/**
 * The note of which page-cache entry each page of a site folder holds (src/site/build/cache/placed-pages.ts), and a
 * page known by it (PageCache.placedUnchanged): only while the page has not changed since the noting build started,
 * and only as the entry the cache still names for the page's key.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSystemNow, fileSystemNowAfter } from '../../src/core/util/change-time.ts';
import { PageCache } from '../../src/site/build/cache/page-cache.ts';
import { placedPagesFile, readPlacedPages, writePlacedPages } from '../../src/site/build/cache/placed-pages.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** A build's start later than every note here. */
const NOW = 2n ** 62n;

describe('the note of a site folder’s pages', () => {
  it('reads back what was written, for the folder by its identity (a rename keeps it)', () => {
    const root = tempDir('placed-');
    const cacheRoot = join(root, 'cache');
    const site = join(root, 'dist');
    mkdirSync(site);
    writePlacedPages(cacheRoot, site, 1_795_927_258_745_988_154n, ['echo-a/index.html', 'ab/ab12.cd34.html', '/browse/index.html', 'ef/ef56.0789.html', 'bad\tname', 'x/y.z.html']);
    const spare = join(root, '.dist.spare');
    renameSync(site, spare);
    const placed = readPlacedPages(placedPagesFile(cacheRoot, spare)!, NOW);
    expect(placed?.before).toBe(1_795_927_258_745_988_154n);
    // A page whose name would break its line is left out.
    expect([...placed!.entries]).toEqual([
      ['echo-a/index.html', 'ab/ab12.cd34.html'],
      ['/browse/index.html', 'ef/ef56.0789.html'],
    ]);
    mkdirSync(site);
    expect(readPlacedPages(placedPagesFile(cacheRoot, site)!, NOW)).toBeUndefined(); // another folder: no note
    expect(placedPagesFile(cacheRoot, join(root, 'missing'))).toBeUndefined();
  });

  it('is ignored whole when damaged, cut short or of another format', () => {
    const root = tempDir('placed-');
    const site = join(root, 'dist');
    mkdirSync(site);
    writePlacedPages(root, site, 7n, ['echo-a/index.html', 'ab/ab12.cd34.html']);
    const file = placedPagesFile(root, site)!;
    const text = readFileSync(file, 'utf8');
    expect(readPlacedPages(file, NOW)?.entries.size).toBe(1);
    expect(readPlacedPages(file, 7n)).toBeUndefined(); // a moment not before this build's start: no measure of before
    for (const damaged of [text.replace('echo-a', 'echo-b'), text.slice(0, -1), text.replace('placed pages 1', 'placed pages 0'), text.split('\n').slice(0, 2).join('\n'), '']) {
      writeFileSync(file, damaged);
      expect(readPlacedPages(file, NOW), JSON.stringify(damaged)).toBeUndefined();
    }
  });

  it('keeps the newest notes of eight folders', () => {
    const root = tempDir('placed-');
    for (let i = 0; i < 10; i++) {
      const site = join(root, `site-${i}`);
      mkdirSync(site);
      writePlacedPages(root, site, BigInt(i), []);
      const file = placedPagesFile(root, site)!;
      utimesSync(file, 1_000 + i, 1_000 + i); // written in this order, whatever the clock's grain
    }
    expect(readdirSync(join(root, 'placed-pages')).length).toBe(8);
    expect(readPlacedPages(placedPagesFile(root, join(root, 'site-9'))!, NOW)?.before).toBe(9n);
  });
});

describe('a page known by the note', () => {
  const key = 'f'.repeat(64);
  const setup = () => {
    const root = tempDir('placed-');
    const dir = join(root, 'pages');
    const site = join(root, 'site');
    mkdirSync(site);
    const page = join(site, 'index.html');
    writeFileSync(page, '<p>page</p>'); // a page of its own, holding the entry's bytes
    const stored = new PageCache({ dir, code: 'code', build: 'a' }).store(key, page, '<p>page</p>')!;
    const before = fileSystemNowAfter(site, [page])!;
    writePlacedPages(root, site, before, ['/index.html', stored]);
    const cache = () => new PageCache({ dir, code: 'code', build: 'b', placedPages: { file: placedPagesFile(root, site)!, now: fileSystemNow(site)! } });
    return { dir, page, stored, cache };
  };

  it('is its entry, by the page’s status alone, while it has not changed since', () => {
    const { page, stored, cache } = setup();
    const known = cache();
    expect(known.placedUnchanged('/index.html', key, page)).toBe(stored);
    expect(known.checks).toEqual({ hashed: 0, known: 1, stored: 0 });
    expect(known.placedUnchanged('/other.html', key, page)).toBeUndefined(); // a page the note does not name
    expect(known.placedUnchanged('/index.html', 'e'.repeat(64), page)).toBeUndefined(); // another key now
  });

  it('is not, once the page changed after the noting build started', () => {
    const { page, cache } = setup();
    writeFileSync(page, '<p>page</p>'); // the same bytes written again: still a change
    expect(cache().placedUnchanged('/index.html', key, page)).toBeUndefined();
  });

  it('is not, when the cache names another entry for the key, or none', () => {
    const { dir, page, stored, cache } = setup();
    renameSync(join(dir, stored), join(dir, stored.replace(/\.[0-9a-f]{64}\.html$/, `.${'0'.repeat(64)}.html`)));
    expect(cache().placedUnchanged('/index.html', key, page)).toBeUndefined();
    expect(new PageCache({ dir, code: 'code', build: 'c' }).placedUnchanged('/index.html', key, page)).toBeUndefined(); // no note
  });
});
