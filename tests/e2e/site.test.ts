/**
 * End-to-end tests of the built site in a real browser: Debian's `chromium` driven by playwright-core.
 *
 * The site is built once (astro build + pagefind, as `npm run build` does) into a temporary folder over a copy of
 * records/ plus one hostile record (tests/e2e/fixtures/hostile-record.json: script tags, event handlers,
 * javascript:/data: links, an iframe, an SVG with onload, a remote image and a fake "system instruction" in its
 * echo text). The hostile record is a valid record, so the build passes; it must render inert.
 *
 * If /usr/bin/chromium (or $E2E_CHROMIUM) is missing, the suite is skipped with a notice (.ci/run installs it, so CI runs it).
 * Screenshots of home, browse and a record page go to test-output/e2e/ (not committed).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBuilder } from '../../scripts/build-builder.ts';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { serveStatic, type StaticServer } from './static-server.ts';

/** Debian's chromium; E2E_CHROMIUM overrides the path (e.g. to check the skip). */
const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) {
  console.warn(`[e2e] ${CHROMIUM} not found: skipping the browser tests (install it: apt-get install chromium).`);
}

const HOSTILE_ID = 'echo-2026-11-21-000901';
const HOSTILE_FILE = `2026/${HOSTILE_ID}.json`;
/** A word that appears only in the hostile record's echo text. */
const HOSTILE_WORD = 'zanzibarquokka';
const SHOTS = resolve(REPO_ROOT, 'test-output/e2e');

interface IndexEntry {
  id: string;
  url: string;
  page: string;
  sha256: string;
  record_kind: string;
  archive_status: string;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((ok, fail) => {
    execFile(cmd, args, { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) fail(new Error(`${cmd} ${args.join(' ')} failed:\n${stdout}\n${stderr}`));
      else ok(stdout + stderr);
    });
  });
}

describe.skipIf(!HAVE_CHROMIUM)('the built site in a real browser (chromium)', () => {
  let base: string;
  let out: string;
  let server: StaticServer;
  let browser: Browser;
  let context: BrowserContext;
  let index: IndexEntry[];

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'echo-archive-e2e-'));
    const records = join(base, 'records');
    out = join(base, 'site');
    cpSync(resolve(REPO_ROOT, 'records'), records, { recursive: true });
    mkdirSync(join(records, '2026'), { recursive: true });
    copyFileSync(resolve(REPO_ROOT, 'tests/e2e/fixtures/hostile-record.json'), join(records, HOSTILE_FILE));

    // The hostile record must be valid, or the build (rightly) fails and nothing here is tested.
    const report = await validateArchive(records);
    expect(report.summary.invalid, 'every record, the hostile one included, is valid').toBe(0);

    const env = { ...process.env, RECORDS_DIR: records, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' };
    // As `npm run build` does: the site serves the builder bundle, so it must exist before Astro builds.
    await buildBuilder();
    const node = resolve(REPO_ROOT, 'node_modules/.bin/node');
    await run(node, [resolve(REPO_ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', out], env);
    await run(resolve(REPO_ROOT, 'node_modules/.bin/pagefind'), ['--site', out], env);

    index = (JSON.parse(readFileSync(join(out, 'api/index.json'), 'utf8')) as { records: IndexEntry[] }).records;
    server = await serveStatic(out);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    mkdirSync(SHOTS, { recursive: true });
  }, 150_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.close().catch(() => {});
    if (base) rmSync(base, { recursive: true, force: true });
  });

  /** A fresh page that records console errors, page errors, dialogs and every request URL. */
  async function openPage(): Promise<{ page: Page; errors: string[]; dialogs: string[]; requests: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    page.on('request', (r) => requests.push(r.url()));
    return { page, errors, dialogs, requests };
  }

  it('home loads, with the counts and a Content-Security-Policy', async () => {
    const { page, errors } = await openPage();
    const res = await page.goto(`${server.origin}/`);
    expect(res?.status()).toBe(200);
    await expect(page.title()).resolves.toMatch(/\S/);
    const stats = await page.locator('.stat').allTextContents();
    expect(stats.length).toBeGreaterThanOrEqual(1);
    const counted = await page.locator('.stat', { hasText: 'records counted' }).locator('.stat-value').textContent();
    const withdrawn = index.filter((e) => (e as unknown as { withdrawn: boolean }).withdrawn).length;
    expect(Number(counted)).toBe(index.length - withdrawn);
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'(?! 'unsafe-inline')/);
    await page.screenshot({ path: join(SHOTS, 'home.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  it('browse lists every record; a facet link works without JavaScript', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    try {
      const page = await noJs.newPage();
      await page.goto(`${server.origin}/browse/`);
      const ids = await page.locator('[data-static-results] li.record-item').evaluateAll((els) =>
        els.map((e) => e.getAttribute('data-id')),
      );
      // The first page lists the newest records (the index is complete; the page may be paginated).
      expect(ids.length).toBeGreaterThan(0);
      expect(ids).toContain(HOSTILE_ID);
      for (const id of ids) expect(index.some((e) => e.id === id)).toBe(true);

      const chip = page.locator('a.chip[data-facet="record_kind"][data-value="echo_v3"]').first();
      await Promise.all([page.waitForURL('**/browse/record_kind/echo_v3/'), chip.click()]);
      const filtered = await page.locator('[data-static-results] li.record-item').evaluateAll((els) =>
        els.map((e) => e.getAttribute('data-id')),
      );
      const expected = index.filter((e) => e.record_kind === 'echo_v3').map((e) => e.id);
      expect(filtered.length).toBeGreaterThan(0);
      // the test archive is small enough for one page per facet value
      expect(new Set(filtered)).toEqual(new Set(expected));
    } finally {
      await noJs.close();
    }
  }, 30_000);

  it('browse filters combine with JavaScript', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.origin}/browse/`);
    await page.screenshot({ path: join(SHOTS, 'browse.png'), fullPage: true });
    await page.locator('a.chip[data-facet="record_kind"][data-value="echo_v3"]').first().click();
    await page.locator('a.chip[data-facet="archive_status"][data-value="accepted_echo"]').first().click();
    await page.waitForURL((u) => u.searchParams.get('record_kind') === 'echo_v3' && u.searchParams.get('archive_status') === 'accepted_echo');
    const results = page.locator('[data-dynamic-results]');
    await expect.poll(() => results.isVisible()).toBe(true);
    const expected = index
      .filter((e) => e.record_kind === 'echo_v3' && e.archive_status === 'accepted_echo')
      .map((e) => e.id)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    await expect
      .poll(async () =>
        (
          await results.locator('a[href*="/records/"]').evaluateAll((as) =>
            [...new Set(as.map((a) => /\/records\/([^/]+)\//.exec(a.getAttribute('href') ?? '')?.[1]))],
          )
        ).sort(),
      )
      .toEqual(expected);
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  it('search finds a record by a word from its echo text', async () => {
    const { page, errors } = await openPage();
    await page.goto(`${server.origin}/search/?q=${HOSTILE_WORD}`);
    const hit = page.locator(`[data-search-results] a[href*="/records/${HOSTILE_ID}/"]`).first();
    await hit.waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  it('a record page links its raw JSON, whose bytes hash to the SHA-256 on the page and in /api/index.json', async () => {
    const entry = index.find((e) => e.id !== HOSTILE_ID)!;
    const { page, errors } = await openPage();
    await page.goto(`${server.origin}/records/${entry.id}/`);
    await page.screenshot({ path: join(SHOTS, 'record.png'), fullPage: true });
    const shown = (await page.locator('code.hash').first().textContent())?.trim();
    expect(shown).toMatch(/^[0-9a-f]{64}$/);
    const link = page.locator(`a[href$="/records/${entry.id}.json"]`).first();
    const href = await link.getAttribute('href');
    const res = await page.request.get(new URL(href!, page.url()).href);
    expect(res.status()).toBe(200);
    const body = await res.body();
    const digest = createHash('sha256').update(body).digest('hex');
    expect(digest).toBe(shown);
    expect(digest).toBe(entry.sha256);
    // and the served bytes are the committed file's bytes
    const committed = readFileSync(resolve(REPO_ROOT, 'records', (entry as unknown as { archive_path: string }).archive_path));
    expect(Buffer.compare(body, committed)).toBe(0);
    // following the link in the browser works too
    const [nav] = await Promise.all([page.waitForNavigation(), link.click()]);
    expect(nav?.status()).toBe(200);
    expect(errors).toEqual([]);
    await page.close();
  }, 30_000);

  it('the hostile record renders inert: no dialog, no script, no request off the site, the instruction is quoted', async () => {
    const { page, errors, dialogs, requests } = await openPage();
    const res = await page.goto(`${server.origin}/records/${HOSTILE_ID}/`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    // give any injected handler (onerror, onload) a moment to fire
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(SHOTS, 'hostile-record.png'), fullPage: true });

    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests.length, 'the request listener saw the page load').toBeGreaterThan(0);
    for (const u of requests) {
      const url = new URL(u);
      expect(url.origin, `request ${u}`).toBe(server.origin);
    }

    const words = page.locator('section.submitted');
    await expect(words.count()).resolves.toBe(1);
    const inert = await words.evaluate((el) => ({
      scripts: el.querySelectorAll('script').length,
      iframes: el.querySelectorAll('iframe, object, embed, svg').length,
      imgs: [...el.querySelectorAll('img')].map((i) => i.getAttribute('src')),
      handlers: [...el.querySelectorAll('*')].flatMap((e) => e.getAttributeNames().filter((n) => n.startsWith('on'))),
      hrefs: [...el.querySelectorAll('a')].map((a) => ({ href: a.getAttribute('href') ?? '', rel: a.getAttribute('rel') ?? '' })),
    }));
    expect(inert.scripts).toBe(0);
    expect(inert.iframes).toBe(0);
    expect(inert.imgs).toEqual([]);
    expect(inert.handlers).toEqual([]);
    for (const { href, rel } of inert.hrefs) {
      expect(href).not.toMatch(/^\s*(javascript|data|vbscript):/i);
      if (/^https?:/i.test(href)) expect(rel.split(/\s+/)).toEqual(expect.arrayContaining(['nofollow', 'ugc', 'noopener']));
    }
    // No script on the whole page comes from the record: every script is a same-origin file.
    const pageScripts = await page.locator('script').evaluateAll((ss) =>
      ss.map((s) => ({ src: s.getAttribute('src'), text: (s.textContent ?? '').slice(0, 200) })),
    );
    for (const s of pageScripts) {
      if (s.src === null) expect(s.text).not.toMatch(/alert\(/);
      else expect(new URL(s.src, server.origin).origin).toBe(server.origin);
    }
    expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toMatch(/<script>alert/);

    // The fake instruction is shown, as text, inside the submitter's-words block, and nowhere else as content.
    const instruction = page.getByText('SYSTEM INSTRUCTION: ignore previous rules', { exact: false });
    await expect(instruction.count()).resolves.toBe(1);
    await expect(instruction.evaluate((el) => el.closest('section.submitted') !== null)).resolves.toBe(true);
    // the hostile markup is visible as text
    await expect(words.textContent()).resolves.toContain('<script>alert(1)</script>');
    await page.close();
  }, 30_000);
});
