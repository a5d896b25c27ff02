/**
 * Verdicts reused from a cache (ValidateOptions.cache, src/core/archive/verdict-cache.ts): the same reports as a
 * validation without one, on the project's records, the hostile fixtures and every archive-wide case, and after
 * changes that must make a file be judged again (its bytes; a linked report changed, removed or added) or that lie
 * outside any verdict (an id used twice).
 */
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateArchive, type ArchiveReport, type FileReport } from '../../src/core/archive/validate-archive.ts';
import type { FileVerdict, ValidationCache } from '../../src/core/archive/verdict-cache.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { tempArchives, writeFiles, type FileContent } from '../helpers/archive.ts';
import { echoWith, REMOVE, REPO_ROOT, reportEcho, validEcho } from '../helpers/records.ts';
import { ECHO, EVERY_CASE, findings, report, REPORT, TOO_LARGE } from '../helpers/archive-cases.ts';

const makeArchive = tempArchives();

/** A cache in memory that keeps verdicts as a store would (serialised), and counts what it was asked. */
class MemoryCache implements ValidationCache {
  readonly kept = new Map<string, string>();
  gets = 0;
  /** The files whose verdicts were made (put, and not what was kept for them). */
  puts: string[] = [];
  /** Every file put: a verdict made or reused is kept for the next pass. */
  everyPut: string[] = [];
  get(path: string, sha256: string): FileVerdict | undefined {
    this.gets++;
    const json = this.kept.get(`${path}\0${sha256}`);
    return json === undefined ? undefined : (JSON.parse(json) as FileVerdict);
  }
  put(path: string, sha256: string, verdict: FileVerdict): void {
    const json = JSON.stringify(verdict);
    if (this.kept.get(`${path}\0${sha256}`) !== json) this.puts.push(path);
    this.everyPut.push(path);
    this.kept.set(`${path}\0${sha256}`, json);
  }
  /** Forgets what was asked (not what is kept), before the next pass. */
  reset(): this {
    this.gets = 0;
    this.puts = [];
    this.everyPut = [];
    return this;
  }
}

const streaming = { onFile: (_: FileReport) => undefined };

/** Validates without a cache, and with `cache` both ways (up front and file by file); the reports with the cache must say the same. */
async function checkAgainstClean(root: string, cache: MemoryCache) {
  const clean = await validateArchive(root);
  const streamed = await validateArchive(root, { ...streaming, cache: cache.reset() });
  const streamedPuts = cache.puts;
  // Every verdict, made or reused, is kept for the next pass, once: one for each file with bytes.
  expect(cache.everyPut).toEqual(streamed.files.filter((f) => f.sha256 !== undefined).map((f) => f.path));
  const upFront = await validateArchive(root, { cache });
  expect(findings(streamed)).toEqual(findings(clean));
  expect(findings(upFront)).toEqual(findings(clean));
  return { clean, streamed, streamedPuts };
}

/** Files with bytes (JSON within the size limit): those a cache can answer for. */
const CACHEABLE = Object.keys(EVERY_CASE).filter((p) => p.endsWith('.json') && p !== TOO_LARGE).length;

const diagnosticsOf = (r: ArchiveReport, path: string) => r.files.find((f) => f.path === path)!.diagnostics;
const rulesOf = (r: ArchiveReport, path: string) => diagnosticsOf(r, path).map((d) => d.rule);

describe('validateArchive with a cache of verdicts', () => {
  it('judges every file once, then reuses every verdict, with the same reports as without a cache', async () => {
    const root = makeArchive(EVERY_CASE);
    const cache = new MemoryCache();
    const cold = await checkAgainstClean(root, cache);
    expect(cold.streamed.fromCache).toBe(0);
    expect(cold.streamedPuts).toHaveLength(CACHEABLE);
    const warm = await checkAgainstClean(root, cache);
    expect(warm.streamed.fromCache).toBe(CACHEABLE);
    expect(warm.streamedPuts).toEqual([]);
    // Not vacuous: the reused verdicts include linked-report, duplicate-id and read findings, and a valid echo that links a report.
    const rules = new Set(warm.streamed.files.flatMap((f) => f.diagnostics.map((d) => d.rule)));
    for (const rule of ['cross/linked-report', 'file/duplicate-id', 'file/not-json', 'file/too-large', 'json/bom']) expect(rules).toContain(rule);
    expect(diagnosticsOf(warm.streamed, ECHO)).toEqual([]);
    // Each report carries the hash of its file's bytes, the key the cache was asked with.
    const echo = warm.streamed.files.find((f) => f.path === ECHO)!;
    expect(echo.sha256).toBe(sha256Hex(readFileSync(join(root, ECHO))));
    expect(cold.clean.files.find((f) => f.path === ECHO)!.sha256).toBeUndefined();
  });

  const roots: [string, string][] = [
    ["the project's records", resolve(REPO_ROOT, 'records')],
    ['the hostile fixtures', resolve(REPO_ROOT, 'tests/e2e/fixtures/hostile')],
  ];
  for (const [name, root] of roots) {
    it.skipIf(!existsSync(root))(`reports ${name} from the cache as without one`, async () => {
      const cache = new MemoryCache();
      await checkAgainstClean(root, cache);
      const warm = await checkAgainstClean(root, cache);
      expect(warm.streamed.fromCache).toBeGreaterThan(0);
      expect(warm.streamed.fromCache).toBe(warm.clean.files.filter((f) => f.path.endsWith('.json')).length);
    });
  }

  it('judges a file again when its bytes change (a file that turns invalid), and only that file', async () => {
    const root = makeArchive(EVERY_CASE);
    const cache = new MemoryCache();
    await checkAgainstClean(root, cache);
    writeFiles(root, { 'd/echo-2026-05-01-000001.json': echoWith({ '/context_depth': 'C0_homepage_only', '/assessment_state': 'qualified_assessment' }) });
    const after = await checkAgainstClean(root, cache);
    expect(after.streamedPuts).toEqual(['d/echo-2026-05-01-000001.json']);
    expect(after.streamed.fromCache).toBe(CACHEABLE - 1);
    expect(rulesOf(after.streamed, 'd/echo-2026-05-01-000001.json')).toContain('cross/c0-assessment');
  });

  it('judges an echo again when its linked report changes, disappears or appears', async () => {
    const root = makeArchive(EVERY_CASE);
    const cache = new MemoryCache();
    await checkAgainstClean(root, cache);

    // The report's label changes: both echoes that link it are judged again (and the report itself), and now differ from it.
    writeFiles(root, { [REPORT]: report('component_limited_verification') });
    let after = await checkAgainstClean(root, cache);
    expect(after.streamedPuts.sort()).toEqual([REPORT, ECHO, 'b/echo-2026-05-02-000002.json'].sort());
    expect(rulesOf(after.streamed, ECHO)).toEqual(['cross/linked-report']);

    // The report disappears (renamed away): the echoes say so.
    renameSync(join(root, REPORT), join(root, 'a/echo-2026-05-01-000099.json'));
    after = await checkAgainstClean(root, cache);
    expect(after.streamedPuts).toContain(ECHO);
    expect(diagnosticsOf(after.streamed, ECHO)[0]!.message).toMatch(/does not exist in the archive/);

    // A report appears where an echo linked a missing one: that echo is valid now.
    const missing = 'b/echo-2026-05-02-000005.json';
    expect(rulesOf(after.streamed, missing)).toEqual(['cross/linked-report']);
    writeFiles(root, { 'nowhere/echo-2026-05-09-000001.json': report() });
    after = await checkAgainstClean(root, cache);
    expect(after.streamedPuts).toContain(missing);
    expect(rulesOf(after.streamed, missing)).toEqual([]);

    // The unreadable report is repaired: the echo that links it is judged again.
    writeFiles(root, { 'c/broken.json': report() });
    after = await checkAgainstClean(root, cache);
    expect(after.streamedPuts).toContain('b/echo-2026-05-02-000007.json');
    expect(rulesOf(after.streamed, 'b/echo-2026-05-02-000007.json')).toEqual([]);
  });

  it('still runs the rules over the whole listing: an id used twice beside a cached file is reported, and goes again', async () => {
    const root = makeArchive({ [REPORT]: report(), [ECHO]: reportEcho(`/${REPORT}`) });
    const cache = new MemoryCache();
    await checkAgainstClean(root, cache);
    writeFiles(root, { 'z/echo-2026-05-02-000001.json': validEcho() });
    let after = await checkAgainstClean(root, cache);
    // The echo's own verdict came from the cache (only the new file was judged), and still the duplicate is reported on it.
    expect(after.streamedPuts).toEqual(['z/echo-2026-05-02-000001.json']);
    expect(after.streamed.fromCache).toBe(2);
    expect(rulesOf(after.streamed, ECHO)).toEqual(['file/duplicate-id']);
    rmSync(join(root, 'z'), { recursive: true });
    after = await checkAgainstClean(root, cache);
    expect(after.streamed.fromCache).toBe(2);
    expect(rulesOf(after.streamed, ECHO)).toEqual([]);
  });

  it('keeps no verdict for a file without bytes (over the size limit), and judges it each time', async () => {
    const big = 'd/echo-2026-05-04-000004.json';
    const root = makeArchive({ [big]: EVERY_CASE[big]! });
    const cache = new MemoryCache();
    const { streamedPuts, streamed } = await checkAgainstClean(root, cache);
    expect(streamedPuts).toEqual([]);
    expect(rulesOf(streamed, big)).toEqual(['file/too-large']);
  });

  // Generated histories of a small archive: each step changes, removes or adds files among echoes that link reports,
  // reports, ids used twice and broken files; after each step the cache, kept from the steps before, must agree with
  // a validation without it.
  const VARIANTS: Record<string, FileContent[]> = {
    'r/echo-2026-05-01-000001.json': [report(), report('component_limited_verification'), '{"broken": ', echoWith({ '/verification_scope_label': REMOVE })],
    'r/echo-2026-05-01-000002.json': [report(), echoWith({ '/record_kind': 'verification_report_v2', '/verification_scope_label': REMOVE })],
    'e/echo-2026-05-02-000001.json': [reportEcho('/r/echo-2026-05-01-000001.json'), reportEcho('/r/echo-2026-05-01-000002.json'), validEcho()],
    'e/echo-2026-05-02-000002.json': [reportEcho('/r/echo-2026-05-01-000001.json', { '/verification_scope_label': 'component_limited_verification' })],
    'e/echo-2026-05-01-000001.json': [validEcho(), reportEcho('/e/echo-2026-05-01-000001.json')],
    'x/echo-2026-05-02-000001.json': [validEcho(), '[]'],
  };
  const PATHS = Object.keys(VARIANTS);
  /** A state of the archive: for each path, absent (-1) or one of its variants. */
  const state = fc.tuple(...PATHS.map((p) => fc.integer({ min: -1, max: VARIANTS[p]!.length - 1 })));

  it('over generated histories of changes, reports with the cache as without it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(state, { minLength: 2, maxLength: 5 }), async (steps) => {
        const root = makeArchive({ 'README.md': '# Records\n' });
        const cache = new MemoryCache();
        for (const step of steps) {
          step.forEach((variant, i) => {
            const path = PATHS[i]!;
            if (variant < 0) rmSync(join(root, path), { force: true });
            else writeFiles(root, { [path]: VARIANTS[path]![variant]! });
          });
          await checkAgainstClean(root, cache);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('reuses a kept verdict only while the files it looked up hash as they did', async () => {
    const root = makeArchive({ [REPORT]: report(), [ECHO]: reportEcho(`/${REPORT}`) });
    const echoSha = sha256Hex(readFileSync(join(root, ECHO)));
    const reportSha = sha256Hex(readFileSync(join(root, REPORT)));
    // A planted verdict, so that reuse shows: a warning no rule would give this echo.
    const planted = { rule: 'test/planted', severity: 'warning' as const, message: 'planted', hint: 'planted', pointer: '', line: 1, column: 1 };
    for (const [lookedUp, reused] of [
      [[[REPORT, reportSha]], true],
      [[[REPORT, sha256Hex('another report')]], false],
      [[[REPORT, null]], false],
      [[[REPORT, reportSha], ['a/echo-2026-05-01-000077.json', null]], true],
      [[[REPORT, reportSha], ['a/echo-2026-05-01-000077.json', reportSha]], false],
    ] as const) {
      for (const options of [streaming, {}]) {
        const cache = new MemoryCache();
        cache.put(ECHO, echoSha, { diagnostics: [planted], lookedUp: lookedUp.map(([p, s]) => [p, s]) });
        const result = await validateArchive(root, { ...options, cache: cache.reset() });
        expect(rulesOf(result, ECHO), JSON.stringify(lookedUp)).toEqual(reused ? ['test/planted'] : []);
        // Judged again, the verdict is put back in place of the stale one.
        expect(cache.puts.includes(ECHO)).toBe(!reused);
      }
    }
  });
});
