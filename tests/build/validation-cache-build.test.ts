/**
 * The validation cache in a real site build (`astro build`, src/site/build/2-read-archive.ts): a build whose verdicts
 * come from the cache writes the same site, byte for byte, as a build without it; it judges only the files that
 * changed and the echoes whose linked report changed; a build with ECHO_ARCHIVE_NO_CACHE=1 neither reads nor writes it.
 * The archive is the project's records/ (15 records, one echo linking a report), so each build takes seconds.
 */
import { execFile } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const base = tempDir('echo-archive-validation-cache-build-');
const records = join(base, 'records');
const cacheDir = join(base, 'cache');
const cacheFile = join(cacheDir, 'validation', 'verdicts.txt');
/** The report that records/2026/echo-2026-04-11-000008.json links (cross/linked-report looks it up). */
const REPORT = '2026/echo-2026-04-11-000007.json';

function astroBuild(out: string, env: Record<string, string>): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      resolve(REPO_ROOT, 'node_modules/.bin/node'),
      [resolve(REPO_ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', out],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, RECORDS_DIR: records, ECHO_ARCHIVE_CACHE_DIR: cacheDir, ECHO_ARCHIVE_NO_CACHE: '', ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', ...env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => (err ? fail(new Error(`${err.message}\n${stdout}${stderr}`)) : done(stdout + stderr)),
    );
  });
}

/** Every file under `dir`, path → bytes. */
function tree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (statSync(join(dir, path)).isFile()) files.set(path, readFileSync(join(dir, path)));
  }
  return files;
}

describe('the site build with the validation cache', () => {
  it('builds the same site with verdicts from the cache as without it, judging only what changed', async () => {
    cpSync(resolve(REPO_ROOT, 'records'), records, { recursive: true });
    // The first build fills the cache.
    const first = await astroBuild(join(base, 'first'), {});
    expect(first).toContain('Validation cache: 15 files judged, 0 unchanged (verdicts from the cache)');

    // The report changes bytes (not meaning): it and the echo that links it are judged again, the other 13 not.
    const report = join(records, REPORT);
    writeFileSync(report, JSON.stringify(JSON.parse(readFileSync(report, 'utf8')), null, 4) + '\n');

    const before = readFileSync(cacheFile);
    const clean = await astroBuild(join(base, 'clean'), { ECHO_ARCHIVE_NO_CACHE: '1' });
    expect(clean).not.toMatch(/Validation cache/);
    expect(readFileSync(cacheFile)).toEqual(before); // --no-cache leaves the cache as it was

    const cached = await astroBuild(join(base, 'cached'), {});
    expect(cached).toContain('Validation cache: 2 files judged, 13 unchanged (verdicts from the cache)');
    expect(readFileSync(cacheFile)).not.toEqual(before);

    const [a, b] = [tree(join(base, 'clean')), tree(join(base, 'cached'))];
    expect(a.size).toBeGreaterThan(50);
    expect([...b.keys()]).toEqual([...a.keys()]);
    const differing = [...a].filter(([path, bytes]) => !bytes.equals(b.get(path)!)).map(([path]) => path);
    expect(differing).toEqual([]);
  }, 180_000);
});
