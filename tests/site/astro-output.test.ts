/**
 * Astro's recorded output (src/site/build/cache/astro-output.ts): its key moves with everything that could change a
 * page of Astro's (code, example draft, frame, the project's environment variables, the gateway's published keys) and
 * with nothing that only says where a build runs; a stored file is used only when its bytes hash to its name; and the
 * key's environment pattern covers every variable the source reads that could reach an Astro page.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateGatewayKey } from '../../src/gateway/keys.ts';
import {
  ASTRO_ENV,
  ASTRO_OUTPUT_DIR,
  astroOutputKey,
  forgetAstroOutput,
  readRecordedAstroOutput,
  recordAstroOutput,
  recordedAstroOutput,
} from '../../src/site/build/cache/astro-output.ts';
import { finishSiteFolder } from '../../src/site/build/5-site-folder.ts';
import type { FrameSettings } from '../../src/site/render/page-frame.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const root = tempDir('echo-astro-output-');
let n = 0;
/** A fresh project per case: the code fingerprint is memoised per folder. */
function project(files: Record<string, string> = {}): string {
  const dir = join(root, `p${n++}`);
  for (const [path, text] of Object.entries({ 'src/a.ts': 'a', 'public/styles/site.css': 'css', 'examples/draft.md': 'draft', ...files })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const frame: FrameSettings = { base: '/', site: 'http://localhost:4321', stylesheet: '/styles/site.css?v=1', local: { siteUrl: 'http://localhost:4321', gatewayUrl: 'http://127.0.0.1:8787' } };
const noKeys = { GATEWAY_DATA_DIR: join(root, 'no-gateway') };

describe("the key of Astro's output", () => {
  it('is the same for the same inputs, wherever the project is and wherever the build puts things', () => {
    const key = astroOutputKey(project(), frame, noKeys);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(astroOutputKey(project(), frame, { ...noKeys, PATH: '/elsewhere', HOME: '/x', ECHO_ARCHIVE_ASTRO_PAGES_ONLY: '1', ECHO_ARCHIVE_CACHE_DIR: '/b', RECORD_PAGE_THREADS: '1' })).toBe(key);
  });

  it('moves with the code, the example draft, the frame, a project variable and the published gateway keys', () => {
    const key = astroOutputKey(project(), frame, noKeys);
    expect(astroOutputKey(project({ 'src/a.ts': 'A' }), frame, noKeys)).not.toBe(key);
    expect(astroOutputKey(project({ 'public/styles/site.css': 'CSS' }), frame, noKeys)).not.toBe(key);
    expect(astroOutputKey(project({ 'examples/draft.md': 'another draft' }), frame, noKeys)).not.toBe(key);
    const same = project();
    for (const other of [{ ...frame, base: '/echoes/' }, { ...frame, site: 'https://example.org' }, { ...frame, stylesheet: '/styles/site.css?v=2' }, { ...frame, local: undefined }]) {
      expect(astroOutputKey(same, other, noKeys)).not.toBe(key);
    }
    for (const env of [{ SITE_URL: 'https://example.org' }, { GATEWAY_URL: 'https://gw.example.org' }, { ECHO_ARCHIVE_DEPLOY: '1' }, { LOG_SIGNING_KEY_FILE: '/k' }, { BROWSE_PAGE_SIZE: '20' }]) {
      expect(astroOutputKey(same, frame, { ...noKeys, ...env }), JSON.stringify(env)).not.toBe(key);
    }
    const gateway = join(root, `gateway-${n++}`);
    mkdirSync(gateway);
    loadOrCreateGatewayKey(gateway);
    expect(astroOutputKey(same, frame, { GATEWAY_DATA_DIR: gateway })).not.toBe(key);
  });

  it('cannot be worked out from an unreadable gateway keys file (Astro then runs)', () => {
    const bad = join(root, 'bad-keys.json');
    writeFileSync(bad, 'not json');
    expect(astroOutputKey(project(), frame, { GATEWAY_KEYS_FILE: bad })).toBeUndefined();
  });

  it("covers every environment variable the source reads, but those known not to reach Astro's pages", () => {
    // Read by the gateway, the CLI or the build's machinery only; Astro's own (import.meta.env) ones are its config.
    const notAstro = new Set(['NO_COLOR', 'HOST', 'RECORD_PAGE_THREADS', 'RECORDS_DIR', 'SITE', 'DEV', 'BASE_URL', 'ECHO_ARCHIVE_ASTRO_PAGES_ONLY', 'ECHO_ARCHIVE_CACHE_DIR', 'ECHO_ARCHIVE_NO_CACHE']);
    const names = new Set<string>();
    const src = join(REPO_ROOT, 'src');
    for (const d of readdirSync(src, { recursive: true, withFileTypes: true })) {
      if (!d.isFile() || !/\.(ts|astro)$/.test(d.name)) continue;
      const text = readFileSync(join(d.parentPath, d.name), 'utf8');
      for (const m of text.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)|_ENV = '([A-Z][A-Z0-9_]+)'/g)) names.add((m[1] ?? m[2])!);
    }
    expect(names.size).toBeGreaterThan(15);
    const uncovered = [...names].filter((name) => !ASTRO_ENV.test(name) && !notAstro.has(name)).sort();
    expect(uncovered, "variables the key of Astro's output does not cover: add them to ASTRO_ENV, or to this list if no Astro page reads them").toEqual([]);
  });
});

describe("Astro's recorded output", () => {
  const site = (files: Record<string, string>) => {
    const dir = tempDir('echo-astro-site-');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };

  it('is found by its key only, and gives back the bytes recorded', () => {
    const cache = tempDir('echo-astro-cache-');
    const dir = site({ 'agents/index.html': 'agents', '_astro/search.js': 'js', 'records/x/index.html': 'not astro' });
    recordAstroOutput(cache, 'k1', dir, ['agents/index.html', '_astro/search.js']);
    expect(recordedAstroOutput(cache, 'k2')).toBeUndefined();
    const record = recordedAstroOutput(cache, 'k1')!;
    expect(Object.keys(record.files).sort()).toEqual(['_astro/search.js', 'agents/index.html']);
    const contents = readRecordedAstroOutput(cache, record)!;
    const out = site({ 'agents/index.html': 'agents' });
    // written into a site's folder as a build without Astro does (finishSiteFolder), each only if its bytes change
    expect(finishSiteFolder({ dir: out, own: false }, { recorded: contents }, new Set())).toEqual({ astro: ['_astro/search.js', 'agents/index.html'], moved: 1, removed: 0 });
    expect(readFileSync(join(out, '_astro/search.js'), 'utf8')).toBe('js');
    forgetAstroOutput(cache);
    expect(recordedAstroOutput(cache, 'k1')).toBeUndefined();
  });

  it('is not used when a stored file is damaged or missing', () => {
    const cache = tempDir('echo-astro-cache-');
    recordAstroOutput(cache, 'k', site({ 'a.html': 'a', 'b.html': 'b' }), ['a.html', 'b.html']);
    const record = recordedAstroOutput(cache, 'k')!;
    const stored = join(cache, ASTRO_OUTPUT_DIR, 'files', record.files['a.html']!);
    writeFileSync(stored, 'A');
    expect(readRecordedAstroOutput(cache, record)).toBeUndefined();
    recordAstroOutput(cache, 'k', site({ 'a.html': 'a' }), ['a.html']);
    expect(readRecordedAstroOutput(cache, recordedAstroOutput(cache, 'k')!)).toBeDefined();
    const again = recordedAstroOutput(cache, 'k')!;
    writeFileSync(join(cache, ASTRO_OUTPUT_DIR, 'record.json'), JSON.stringify({ ...again, files: { ...again.files, 'c.html': 'f'.repeat(64) } }));
    expect(readRecordedAstroOutput(cache, recordedAstroOutput(cache, 'k')!)).toBeUndefined();
  });

  it('keeps only the files of the latest record', () => {
    const cache = tempDir('echo-astro-cache-');
    recordAstroOutput(cache, 'k1', site({ 'a.html': 'one' }), ['a.html']);
    recordAstroOutput(cache, 'k2', site({ 'a.html': 'two' }), ['a.html']);
    expect(readdirSync(join(cache, ASTRO_OUTPUT_DIR, 'files'))).toEqual([recordedAstroOutput(cache, 'k2')!.files['a.html']]);
  });
});
