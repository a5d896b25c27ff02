/**
 * Checks over a whole built site, as a reader and an agent meet it (issue 26): `npm run build`'s steps (builder
 * bundle, astro build with its search index) over the project's records into a temporary folder, a local build (no
 * ECHO_ARCHIVE_DEPLOY, no log signing key), then every page and document:
 *   - no word glued to an inline element in any page's text (the class of "status<em>accepted");
 *   - every internal href and src of every page, and every link of llms.txt, resolves to a built file, and no retired
 *     or legacy path is a link;
 *   - every page of a local build says it is one;
 *   - every document under /api/ is reachable from llms.txt or the agent router;
 *   - the 404 page names no canonical address;
 *   - every listing (all records, each facet value) holds each of its records on exactly one of its pages, newest
 *     first by order of arrival, reached from its front page by "Older →" (issue 27).
 * The build has 5 records a listing page (BROWSE_PAGE_SIZE), so that the project's few records fill numbered pages.
 * BUILT_SITE=<folder> checks an existing local build of the project's records instead of building one.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { DEFAULT_GATEWAY_URL, DEFAULT_SITE_URL } from '../../src/core/config.ts';
import { publishedApiDocuments, RETIRED_PATHS } from '../../src/core/publish/discovery.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { archiveOrder } from '../../src/core/search/archive-order.ts';
import { FACETS, valueSlug } from '../../src/site/model/facets.ts';
import { gluedWords, htmlFiles, pageIds, pageReferences, read, resolveInternal, siteFiles } from '../helpers/built-site.ts';
import { TYPO_QUERIES, WORDS_KEPT } from '../../scripts/lib/typo-queries.ts';
import { runQueries } from '../../scripts/lib/search-queries.ts';
import claimGateEntrypointPolicy from '../../documents/claim-gate-entrypoint-policy.json' with { type: 'json' };

const NODE = resolve(REPO_ROOT, 'node_modules/.bin/node');
const SITE = DEFAULT_SITE_URL;

/** Retired and legacy paths the documents name: text, never links. */
const NOT_LINKS = new Set([...RETIRED_PATHS, ...(claimGateEntrypointPolicy as { legacy_internal_entrypoints: { paths: string[] } }).legacy_internal_entrypoints.paths]);

function run(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((ok, fail) => {
    execFile(NODE, args, { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? fail(new Error(`${args.join(' ')} failed:\n${stdout}\n${stderr}`)) : ok(),
    );
  });
}

let dir = process.env.BUILT_SITE ?? '';
let base = '';

beforeAll(async () => {
  if (dir) return;
  base = mkdtempSync(join(tmpdir(), 'echo-built-site-'));
  dir = join(base, 'site');
  const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', ECHO_ARCHIVE_NO_CACHE: '1', BROWSE_PAGE_SIZE: '5' };
  for (const name of ['ECHO_ARCHIVE_DEPLOY', 'SITE_URL', 'GATEWAY_URL', 'RECORDS_DIR', 'LOG_SIGNING_KEY', 'LOG_SIGNING_KEY_FILE']) delete env[name];
  // No bundle made first: the build bundles the record-chain builder itself.
  await run([resolve(REPO_ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', dir], env);
}, 300_000);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** The page's own path for resolving its relative links: /a/b/index.html → /a/b/. */
const pagePath = (file: string) => file.replace(/index\.html$/, '');

describe('the built site (a local build of the project\'s records)', () => {
  it('has pages of every kind', () => {
    const pages = htmlFiles(dir);
    for (const p of ['/index.html', '/browse/index.html', '/agents/index.html', '/contributing/index.html', '/policies/claim-gate-entrypoint/index.html', '/404.html']) {
      expect(pages).toContain(p);
    }
    expect(pages.filter((p) => p.startsWith('/records/')).length).toBeGreaterThan(5);
  });

  it('publishes the record-chain builder it bundled for this site: the bytes whose size and SHA-256 its release names', () => {
    const bytes = readFileSync(join(dir, 'downloads/record-chain-builder.mjs'));
    const release = JSON.parse(readFileSync(join(dir, 'api/record-chain-builder.json'), 'utf8')) as { size: number; sha256: string };
    expect(release).toMatchObject({ size: bytes.length, sha256: sha256Hex(bytes) });
    expect(bytes.toString('utf8').split('\n', 3)[2]).toContain(`// Site ${SITE}, gateway ${DEFAULT_GATEWAY_URL}.`);
  });

  it('no word of any page is glued to an inline element (a line break lost before <code>, <em>, <a>…)', () => {
    const glued: string[] = [];
    for (const file of htmlFiles(dir)) for (const g of gluedWords(read(dir, file))) glued.push(`${file}: ${g}`);
    expect(glued).toEqual([]);
  });

  it('the glue check sees glued words', () => {
    expect(gluedWords('<p>archive status<em>accepted</em> and <code>cp.txt</code>exits</p>')).toEqual(['s⟨em⟩accepted⟨/em⟩ ', ' ⟨code⟩cp.txt⟨/code⟩e']);
    expect(gluedWords('<p>archive status <em>accepted</em> (<code>x</code>), <a href="/">y</a>.</p><p><a>a</a><code>b</code></p>')).toEqual([]);
    // a submitter's own Markdown is theirs
    expect(gluedWords('<section class="submitted"><p>foo<strong>bar</strong></p></section>')).toEqual([]);
  });

  it('every internal href and src of every page resolves to a built file (and its fragment to an element)', () => {
    const dead: string[] = [];
    const ids = new Map<string, Set<string>>();
    const idsOf = (file: string) => ids.get(file) ?? ids.set(file, pageIds(read(dir, file))).get(file)!;
    let checked = 0;
    for (const file of htmlFiles(dir)) {
      for (const ref of pageReferences(read(dir, file))) {
        const target = resolveInternal(dir, ref.value, pagePath(file), SITE);
        if (target === null) continue;
        checked++;
        if (target.file === undefined) dead.push(`${file}: <${ref.tag} ${ref.attr}="${ref.value}">`);
        else if (target.fragment && target.file.endsWith('.html') && !idsOf(target.file).has(decodeURIComponent(target.fragment))) {
          dead.push(`${file}: <${ref.tag} ${ref.attr}="${ref.value}"> (no element #${target.fragment})`);
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(dead).toEqual([]);
  });

  it('no retired or legacy path is a link, on any page or in llms.txt', () => {
    const linked: string[] = [];
    for (const file of htmlFiles(dir)) {
      for (const ref of pageReferences(read(dir, file))) {
        const target = resolveInternal(dir, ref.value, pagePath(file), SITE);
        if (target && NOT_LINKS.has(target.path)) linked.push(`${file}: ${ref.value}`);
      }
    }
    for (const [, url] of read(dir, '/llms.txt').matchAll(/\]\(([^)]+)\)/g)) {
      const target = resolveInternal(dir, url!, '/', SITE);
      if (target && NOT_LINKS.has(target.path)) linked.push(`llms.txt: ${url}`);
    }
    expect(linked).toEqual([]);
    // … and they are still named, as text
    expect(read(dir, '/policies/claim-gate-entrypoint/index.html')).toContain('/api/agent-entry-protocol.json');
    expect(read(dir, '/policies/propagation/index.html')).toContain('/agent-submit');
  });

  it('every link of llms.txt, robots.txt and the sitemap resolves to a built file (no /log/checkpoint without a log key)', () => {
    const dead: string[] = [];
    const urls = [
      ...[...read(dir, '/llms.txt').matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!),
      ...[...read(dir, '/robots.txt').matchAll(/^Sitemap: (\S+)$/gm)].map((m) => m[1]!),
      ...[...read(dir, '/sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!),
    ];
    expect(urls.length).toBeGreaterThan(20);
    for (const url of urls) {
      const target = resolveInternal(dir, url, '/', SITE);
      if (target === null) dead.push(`${url} (not on the site)`);
      else if (target.file === undefined) dead.push(url);
    }
    expect(dead).toEqual([]);
    expect(existsSync(join(dir, 'log/checkpoint'))).toBe(false);
    expect(read(dir, '/llms.txt')).toMatch(/Signed checkpoint: none published by this build/);
  });

  it('every page of a local build says it is one, with the addresses it points at', () => {
    const missing: string[] = [];
    for (const file of htmlFiles(dir)) {
      const html = read(dir, file);
      if (file === '/records/index.html') continue; // the redirect to /browse/
      const banner = /<div class="local-build"[^>]*>(.*?)<\/div>/s.exec(html)?.[1];
      if (!banner || !banner.includes('A local build, not the published archive') || !banner.includes(SITE) || !banner.includes(DEFAULT_GATEWAY_URL)) missing.push(file);
    }
    expect(missing).toEqual([]);
  });

  it('every document under /api/ is reachable from llms.txt or the agent router, which list them all', () => {
    const llms = read(dir, '/llms.txt');
    const router = read(dir, '/api/agent-first-contact.json');
    const built = siteFiles(dir).filter((p) => p.startsWith('/api/') && !p.startsWith('/api/index/'));
    expect(built.sort()).toEqual(publishedApiDocuments());
    const unreachable = built.filter((p) => !llms.includes(`(${SITE}${p})`) && !router.includes(`"${p}"`));
    expect(unreachable).toEqual([]);
    // the agents' page, the transparency log and the builder's checksum, by name
    expect(llms).toContain(`(${SITE}/agents/)`);
    expect(llms).toContain(`(${SITE}/api/record-chain-builder.json)`);
    expect(router).toContain('"/api/log.json"');
  });

  it('the 404 page names no canonical address (it is served wherever nothing is found)', () => {
    const html = read(dir, '/404.html');
    expect(html).not.toContain('rel="canonical"');
    // every other page's canonical link is its own built page
    for (const file of htmlFiles(dir).filter((f) => f !== '/404.html' && f !== '/records/index.html')) {
      const canonical = /<link rel="canonical" href="([^"]+)">/.exec(read(dir, file))?.[1];
      expect(canonical, file).toBe(`${SITE}${pagePath(file)}`);
    }
  });

  it('reader pages speak plainly: what each verification level means, no field names or rulings, no one-value filter', () => {
    const levels = read(dir, '/browse/verification_level/index.html');
    expect(levels).toContain('What it means');
    for (const v of ['V0', 'V1', 'V2', 'V3']) expect(levels, v).toMatch(new RegExp(`>${v}</a>\\s*</td>\\s*<td>[A-Z][^<]{20,}</td>`));
    const type = read(dir, '/browse/record_type/index.html');
    expect(type).not.toMatch(/extensions\.record_chain|DECISIONS|Else null/);
    const filters: string[] = [];
    for (const file of htmlFiles(dir).filter((f) => f.startsWith('/browse/'))) {
      const html = read(dir, file);
      if (html.includes('Not a record-chain record')) filters.push(`${file}: "Not a record-chain record"`);
      // a filter group with a single value filters nothing
      for (const [, group] of html.matchAll(/<ul class="chips" data-facet="([^"]+)">/g)) {
        const chips = [...html.matchAll(new RegExp(`<a class="chip"[^>]*data-facet="${group}"`, 'g'))].length;
        if (chips < 2 && !file.startsWith(`/browse/${group}/`)) filters.push(`${file}: ${group} has ${chips} value`);
      }
    }
    expect(filters).toEqual([]);
  });

  it('counts say what they count: each per-facet count of the index sums to counted; the home tables show counted and listed', () => {
    const { counts } = JSON.parse(read(dir, '/api/index.json')) as { counts: Record<string, number | Record<string, number>> };
    for (const [key, map] of Object.entries(counts)) {
      if (!key.startsWith('by_')) continue;
      expect(Object.values(map as Record<string, number>).reduce((a, b) => a + b, 0), key).toBe(counts.counted);
      expect(map, key).toHaveProperty('not_set');
    }
    const home = read(dir, '/index.html');
    expect(counts.withdrawn, 'the project archive has a withdrawn record').toBeGreaterThan(0);
    expect(home).toContain('<th scope="col" class="num">Counted</th>');
    expect(home).toContain('<th scope="col" class="num">Listed (withdrawn included)</th>');
    // every "listed" number is what the value's page lists
    const rows = [...home.matchAll(/<td>\s*<a href="(\/browse\/[^"]+\/)">[^<]*<\/a>\s*<\/td>\s*<td class="num">(\d+)<\/td>\s*<td class="num">(\d+)<\/td>/g)];
    expect(rows.length).toBeGreaterThan(3);
    for (const [, href, , listed] of rows) {
      const page = read(dir, `${href}index.html`);
      expect(Number(/<span data-summary-text>(\d+) record/.exec(page)?.[1]), href).toBe(Number(listed));
    }
  });

  it('every listing holds each of its records on exactly one page, newest first by arrival, all reached by "Older →"', () => {
    const { records } = JSON.parse(read(dir, '/api/index.json')) as { records: Array<Record<string, unknown> & { id: string }> };
    const newestFirst = (entries: typeof records) => archiveOrder(entries, (e) => e.id).map((e) => e.id).reverse();
    const listings = new Map([['/browse/', newestFirst(records)]]);
    for (const facet of FACETS) {
      for (const entry of records) {
        const path = `/browse/${facet.key}/${valueSlug((entry[facet.key] as string | null) ?? null)}/`;
        if (!listings.has(path)) listings.set(path, newestFirst(records.filter((e) => e[facet.key] === entry[facet.key])));
      }
    }
    const walked = new Set<string>();
    for (const [front, expected] of listings) {
      const listed: string[] = [];
      const pages: string[] = [];
      for (let page: string | undefined = front; page !== undefined; page = /<a href="([^"]+)" rel="next">Older →<\/a>/.exec(read(dir, `${page}index.html`))?.[1]) {
        expect(pages, `${front}: "Older →" goes round in a circle`).not.toContain(page);
        pages.push(page);
        walked.add(page);
        const list = /<div data-static-results>([\s\S]*?)<\/div>/.exec(read(dir, `${page}index.html`))![1]!;
        listed.push(...[...list.matchAll(/<li class="record-item" data-id="([^"]+)"/g)].map((m) => m[1]!));
      }
      expect(listed, front).toEqual(expected);
      // the front page, then the numbered pages counting down to 1
      expect(pages.slice(1), front).toEqual(pages.slice(1).map((_, i) => `${front}${pages.length - 1 - i}/`));
    }
    // every numbered page belongs to a listing and was reached; at 5 records a page, some listings have them
    const numbered = htmlFiles(dir).filter((f) => /^\/browse\/(?:[^/]+\/[^/]+\/)?\d+\/index\.html$/.test(f)).map((f) => f.replace(/index\.html$/, ''));
    for (const page of numbered) expect(walked.has(page), page).toBe(true);
    if (!process.env.BUILT_SITE) expect(numbered.length).toBeGreaterThan(3);
  });

  it('search forgives a typo: each misspelling of the fixed query set finds what the word meant finds', async () => {
    const { queries } = await runQueries(dir, [...TYPO_QUERIES.flatMap((t) => [t.typed, t.meant]), ...WORDS_KEPT]);
    const found = new Map(queries.map((r) => [r.q, r]));
    for (const { typed, meant } of TYPO_QUERIES) {
      expect(found.get(meant)!.results, meant).toBeGreaterThan(0);
      expect(found.get(meant)!.corrected, meant).toBeNull();
      expect(found.get(typed)!.corrected, typed).toBe(meant);
      expect(found.get(typed)!.results, typed).toBe(found.get(meant)!.results);
      expect(found.get(typed)!.top10, typed).toEqual(found.get(meant)!.top10);
      expect(found.get(typed)!.typedResults!, typed).toBeLessThan(found.get(meant)!.results);
    }
    for (const word of WORDS_KEPT) expect(found.get(word)!.corrected, word).toBeNull();
  }, 60_000);
});
