/**
 * The record pages rendered beside Astro (src/site/build/3-record-pages.ts): one page per record, on worker threads or on
 * the main thread, each the same document `astro dev` serves (recordDocument); and the move of the staged pages
 * and files into the output (src/core/util/move-entries.ts).
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSystemNow } from '../../src/core/util/change-time.ts';
import { finishSiteFolder } from '../../src/site/build/5-site-folder.ts';
import { archivePagePath, listingPagePath, recordPageId } from '../../src/site/build/integration.ts';
import { publishRawRecord, readRawRecord } from '../../src/site/build/4-raw-records.ts';
import { batchesToQueue, batchTimes, recordJobs, recordPageThreads, startRecordPages, type RecordSource } from '../../src/site/build/3-record-pages.ts';
import { readRecordPage } from '../../src/site/build/3-record-pages-worker.ts';
import { echoHtml } from '../../src/site/render/echo-html.ts';
import { frameOf } from '../../src/site/render/page-frame.ts';
import { recordDocument } from '../../src/site/render/record-document.ts';
import { readSearchDocuments } from '../../src/site/build/7-search-segments.ts';
import type { SiteRecord } from '../../src/site/build/2-read-archive.ts';
import { listingJobs } from '../../src/site/model/listing-jobs.ts';
import { archiveModelOf } from '../../src/site/model/site-model.ts';
import { listingDocument } from '../../src/site/render/listing-document.ts';
import { listingCacheKey, listPageCache } from '../../src/site/build/cache/page-cache.ts';
import { publishRecord, validEcho } from '../publish/helpers.ts';
import { tempDir as makeTempDir } from '../helpers/temp-dir.ts';

const quiet = { info: () => {}, warn: (m: string) => warnings.push(m) };
const warnings: string[] = [];
const frame = { base: '/', site: 'https://echoes.example.org', stylesheet: '/styles/site.css?v=1' };
const siteFrame = frameOf(frame);

function tempDir(): string {
  return makeTempDir('echo-record-pages-');
}

/** Every search document the batches wrote into `dir`, by record id (references read from the page cache at `cacheDir`). */
function searchDocuments(dir: string, cacheDir?: string): Map<string, unknown> {
  const docs = readdirSync(dir).flatMap((name) => [...readSearchDocuments(join(dir, name), cacheDir)]);
  return new Map(docs.sort((a, b) => (a.document.id < b.document.id ? -1 : 1)).map((d) => [d.document.id, d]));
}

/** The ids of those documents, sorted; each id once or the map would hide it. */
function searchedIds(dir: string): string[] {
  const ids = readdirSync(dir).flatMap((name) => [...readSearchDocuments(join(dir, name))].map((d) => d.document.id));
  return ids.sort();
}

/** Site records as the build has them: each with its file on disk (published beside its page). */
function onDisk(...list: ReturnType<typeof publishRecord>[]): (RecordSource & { bytes: Buffer })[] {
  const root = tempDir();
  return list.map((r) => {
    const file = join(root, `${r.id}.json`);
    writeFileSync(file, r.bytes);
    return { ...r, file };
  });
}

const records = onDisk(
  ...Array.from({ length: 130 }, (_, i) => {
    const seq = String(i + 1).padStart(6, '0');
    const echo = `Record ${i}: **bold**, <img src=x onerror=alert(${i})>, [link](javascript:alert(${i}))\n\n## Part ${i}`;
    return publishRecord(`2026/echo-2026-11-${String(1 + (i % 28)).padStart(2, '0')}-${seq}.json`, { ...validEcho(), echo });
  }),
);

describe('recordJobs', () => {
  it('is every record, newest first, with the relations its page shows', () => {
    const report = publishRecord('2026/echo-2026-11-20-000001.json', { ...validEcho(), record_kind: 'verification_report' });
    const linking = publishRecord('2026/echo-2026-11-21-000002.json', {
      ...validEcho(),
      linked_verification_report: { path: 'records/2026/echo-2026-11-20-000001.json' },
    });
    const old = publishRecord('2026/echo-2026-11-19-000003.json', {
      ...validEcho(),
      archive_status: 'superseded',
      superseded_reason: 'Replaced by echo-2026-11-21-000002.',
    });
    const jobs = recordJobs(onDisk(old, report, linking));
    expect(jobs.map((j) => j.page.entry.id)).toEqual(['echo-2026-11-21-000002', 'echo-2026-11-20-000001', 'echo-2026-11-19-000003']);
    expect(jobs.map((j) => j.raw.id)).toEqual(jobs.map((j) => j.page.entry.id));
    // Neither bytes nor the parsed record (its echo text) go to a worker: it parses the file it publishes.
    expect(Object.keys(jobs[0]!.page.entry).sort()).toEqual(['archiveDate', 'id', 'path', 'sha256']);
    const [first, second, third] = jobs.map((j) => j.page);
    expect(first!.linkedReport?.id).toBe('echo-2026-11-20-000001');
    expect(first!.supersedes).toEqual(['echo-2026-11-19-000003']);
    expect(second!.linkedFrom.map((s) => s.id)).toEqual(['echo-2026-11-21-000002']);
    expect(third!.supersededBy).toEqual(['echo-2026-11-21-000002']);
    expect(third!.linkedReport).toBeUndefined();
  });

  it('refuses an id that cannot name a folder', () => {
    expect(() => recordJobs([{ ...publishRecord('2026/...json'), file: '/nowhere' }])).toThrow(/cannot name a page folder/);
  });
});

describe('startRecordPages', () => {
  for (const [threads, pagesFromCache] of [[1, false], [0, false], [1, true], [0, true]] as const) {
    const who = threads === 0 ? 'main thread' : pagesFromCache ? 'worker threads, the pages expected from the cache' : 'worker threads and the main thread';
    it(`writes every record's page, as astro dev serves it (${who}${threads === 0 && pagesFromCache ? ', though the pages were expected from the cache' : ''})`, async () => {
      const dir = tempDir();
      const searchDir = tempDir();
      const run = startRecordPages(records, { frame, dir, logger: quiet, threads, searchDir, pagesFromCache });
      const total = { pages: records.length, reused: 0, linked: records.length, copied: 0, rawKnown: 0, listings: 0, listingsReused: 0, entries: [], placed: [], recordFolders: 0, entriesHashed: 0, entriesKnown: 0, entriesStored: 0 };
      expect(await run.finish()).toEqual({ ...total, changed: 2 * records.length });
      // One search document per record, in the batches' files.
      expect(searchedIds(searchDir)).toEqual(records.map((r) => r.id).sort());
      const jobs = new Map(recordJobs(records).map((j) => [j.page.entry.id, readRecordPage(j)]));
      expect(readdirSync(dir).sort()).toEqual([...jobs.keys()].flatMap((id) => [id, `${id}.json`]).sort());
      for (const [id, job] of jobs) {
        expect(readFileSync(join(dir, id, 'index.html'), 'utf8')).toBe(recordDocument(job, siteFrame, echoHtml));
      }
      for (const r of records) expect(readFileSync(join(dir, `${r.id}.json`))).toEqual(r.bytes);
      expect(warnings).toEqual([]);
      // Again over the same folder (the previous build's site, updated in place): nothing is written.
      const again = startRecordPages(records, { frame, dir, logger: quiet, threads, searchDir: tempDir() });
      expect(await again.finish()).toEqual({ ...total, changed: 0, recordFolders: records.length }); // every record's folder there before
      // What a record's folder holds besides its page is noted for the build's prune, folders deepest first.
      const [a, b] = records.map((r) => r.id);
      writeFileSync(join(dir, a!, 'notes.txt'), 'left over');
      mkdirSync(join(dir, b!, 'old', 'deeper'), { recursive: true });
      writeFileSync(join(dir, b!, 'old', 'deeper', 'page.html'), 'left over');
      const beside = (await startRecordPages(records, { frame, dir, logger: quiet, threads, searchDir: tempDir() }).finish()).besidePages;
      expect({ files: beside?.files.sort(), folders: beside?.folders }).toEqual({
        files: [`${a}/notes.txt`, `${b}/old/deeper/page.html`].sort(),
        folders: [`${b}/old/deeper`, `${b}/old`],
      });
    });
  }

  it('tells how many pages it has rendered so far, batch by batch: none when the cache gives them all', async () => {
    const cache = { dir: tempDir(), code: 'code', build: 'first' };
    const told: number[] = [];
    await startRecordPages(records, { frame, dir: tempDir(), logger: quiet, threads: 1, cache, onRendered: (n) => told.push(n) }).finish();
    expect(told.length).toBeGreaterThan(0);
    expect(told.at(-1)).toBe(records.length);
    expect([...told].sort((a, b) => a - b)).toEqual(told);
    const again: number[] = [];
    await startRecordPages(records, { frame, dir: tempDir(), logger: quiet, threads: 1, cache: { ...cache, build: 'second' }, onRendered: (n) => again.push(n) }).finish();
    expect(again.length).toBeGreaterThan(0);
    expect(again.every((n) => n === 0)).toBe(true);
  });

  it('a record folder unchanged since the moment it was noted alone is not read; one changed since is', async () => {
    const dir = tempDir();
    await startRecordPages(records, { frame, dir, logger: quiet, threads: 1, searchDir: tempDir() }).finish();
    const [a, b, c] = records.map((r) => r.id);
    // In b's folder before the moment, so that a read would find it: not read, so not noted.
    writeFileSync(join(dir, b!, 'before.txt'), 'put there before the moment');
    // A link to a folder where c's folder belongs is read as before, however long ago it was made.
    renameSync(join(dir, c!), join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', 'before.txt'), 'put there before the moment');
    symlinkSync('elsewhere', join(dir, c!));
    // A moment after those changes, whatever the grain of the file system's clock.
    const changed = [b!, c!, 'elsewhere'].map((name) => lstatSync(join(dir, name), { bigint: true }).ctimeNs);
    let moment = fileSystemNow(dir)!;
    while (changed.some((ctime) => ctime >= moment)) moment = fileSystemNow(dir)!;
    writeFileSync(join(dir, a!, 'after.txt'), 'put there after the moment');
    const beside = (await startRecordPages(records, { frame, dir, logger: quiet, threads: 1, searchDir: tempDir(), aloneBefore: moment }).finish()).besidePages;
    expect(beside?.files.sort()).toEqual([`${a}/after.txt`, `${c}/before.txt`].sort());
    // Without the moment, every folder is read.
    const all = (await startRecordPages(records, { frame, dir, logger: quiet, threads: 0, searchDir: tempDir() }).finish()).besidePages;
    expect(all?.files.sort()).toEqual([`${a}/after.txt`, `${b}/before.txt`, `${c}/before.txt`].sort());
  });

  it('with the page cache: a second run links every page from the cache, the same bytes', async () => {
    const cache = { dir: tempDir(), code: 'code', build: 'first' };
    const first = tempDir();
    const madeDir = tempDir();
    const filled = await startRecordPages(records, { frame, dir: first, logger: quiet, threads: 1, cache, searchDir: madeDir }).finish();
    expect(filled).toMatchObject({ pages: records.length, reused: 0 });
    // A page and its record's search document each.
    expect(filled.entries).toHaveLength(2 * records.length);
    const second = tempDir();
    const reusedDir = tempDir();
    const reused = await startRecordPages(records, { frame, dir: second, logger: quiet, threads: 1, cache: { ...cache, build: 'second' }, searchDir: reusedDir }).finish();
    // From the cache, the same search documents as made: references to the cache's entries, not their text.
    expect(readFileSync(join(reusedDir, readdirSync(reusedDir)[0]!), 'utf8')).toMatch(/^@[0-9a-f]{2}\/[0-9a-f]{64}\.[0-9a-f]{64}\.json\n/);
    expect(searchDocuments(reusedDir, cache.dir)).toEqual(searchDocuments(madeDir));
    expect(searchedIds(madeDir)).toEqual(records.map((r) => r.id).sort());
    expect(reused).toMatchObject({ pages: records.length, reused: records.length });
    expect(new Set(reused.entries)).toEqual(new Set(filled.entries));
    // The pages' entries looked at (read, or known by their change time), the search documents' named as listed.
    expect(reused.entriesHashed + reused.entriesKnown).toBe(records.length);
    for (const r of records) expect(readFileSync(join(second, r.id, 'index.html'))).toEqual(readFileSync(join(first, r.id, 'index.html')));
    // other code: nothing reused
    const third = await startRecordPages(records, { frame, dir: tempDir(), logger: quiet, threads: 0, cache: { ...cache, code: 'other', build: 'third' } }).finish();
    expect(third.reused).toBe(0);
    // The pages the main thread renders look entries up in the listing it is given (made for the prune), not in the
    // folder: one that lists nothing finds nothing, one of the cache finds every page.
    const listing = await listPageCache(cache.dir);
    const unlisted = await startRecordPages(records, { frame, dir: tempDir(), logger: quiet, threads: 0, cache: { ...cache, build: 'fourth' } }).finish({ folders: new Map(), files: [] });
    expect(unlisted.reused).toBe(0);
    const listed = await startRecordPages(records, { frame, dir: tempDir(), logger: quiet, threads: 0, cache: { ...cache, build: 'fifth' } }).finish(listing);
    expect(listed.reused).toBe(records.length);
  });

  it("makes records' search documents on the calling thread when the index asks, as the threads make them", async () => {
    const madeDir = tempDir();
    const run = startRecordPages(records, { frame, dir: tempDir(), logger: quiet, threads: 1, searchDir: madeDir });
    await run.finish();
    const made = searchDocuments(madeDir);
    const ids = records.map((r) => r.id).reverse();
    expect(run.searchDocuments(ids).map((line) => JSON.parse(line) as unknown)).toEqual(ids.map((id) => made.get(id)));
    expect(() => run.searchDocuments(['echo-2099-01-01-000001'])).toThrow(/echo-2099-01-01-000001, which has no page/);
  });

  it('renders the listing pages after the records, each once, and from the cache when its job is unchanged', async () => {
    const model = archiveModelOf(records as unknown as SiteRecord[]);
    const jobs = listingJobs(model, 7);
    const script = 'scripts/browse-filter.0123456789ab.js';
    const cache = { dir: tempDir(), code: 'code', build: 'first' };
    const run = (build: string, listingJobsNow: typeof jobs, threads = 1) => {
      const dir = tempDir();
      const listings = { dir: tempDir(), script, jobs: Promise.resolve(listingJobsNow) };
      return startRecordPages(records, { frame, dir, logger: quiet, threads, cache: { ...cache, build }, listings }).finish().then((total) => ({ total, out: listings.dir }));
    };
    const first = await run('first', jobs);
    expect(first.total).toMatchObject({ pages: records.length, listings: jobs.length, listingsReused: 0 });
    for (const job of jobs) expect(readFileSync(join(first.out, job.path, 'index.html'), 'utf8')).toBe(listingDocument(job, siteFrame, script));
    // The same jobs: every listing page from the cache, the same bytes (on the main thread this time).
    const second = await run('second', jobs, 0);
    expect(second.total).toMatchObject({ listings: jobs.length, listingsReused: jobs.length });
    for (const job of jobs) expect(readFileSync(join(second.out, job.path, 'index.html'))).toEqual(readFileSync(join(first.out, job.path, 'index.html')));
    // One job changed: that page alone is rendered again.
    const changed = jobs.map((j, i) => (i === 3 ? { ...j, title: `${j.title} (changed)` } : j));
    const third = await run('third', changed);
    expect(third.total).toMatchObject({ listings: jobs.length, listingsReused: jobs.length - 1 });
    expect(readFileSync(join(third.out, changed[3]!.path, 'index.html'), 'utf8')).toContain('(changed)');
  });

  it('sends a listing job only for a page the cache cannot give: a damaged entry is rendered again from its job', async () => {
    const model = archiveModelOf(records as unknown as SiteRecord[]);
    const jobs = listingJobs(model, 7);
    const script = 'scripts/browse-filter.0123456789ab.js';
    const cache = { dir: tempDir(), code: 'code', build: 'first' };
    const run = (build: string, threads: number) => {
      const listings = { dir: tempDir(), script, jobs: Promise.resolve(jobs) };
      return startRecordPages(records.slice(0, 3), { frame, dir: tempDir(), logger: quiet, threads, cache: { ...cache, build }, listings })
        .finish()
        .then((total) => ({ total, out: listings.dir }));
    };
    const first = await run('first', 1);
    // Two entries damaged (the cache is the only place their pages would come from), one removed.
    const entries = jobs.slice(0, 3).map((job) => {
      const key = listingCacheKey(cache.code, frame, script, job);
      return first.total.entries.find((e) => e.startsWith(`${key.slice(0, 2)}/${key}.`))!;
    });
    for (const e of entries.slice(0, 2)) writeFileSync(join(cache.dir, e), 'damaged');
    unlinkSync(join(cache.dir, entries[2]!));
    for (const [build, threads] of [['second', 1], ['third', 0]] as const) {
      const next = await run(build, threads);
      // Each page once: the three are rendered from their jobs, sent after the cache could not give them.
      expect(next.total).toMatchObject({ listings: jobs.length, listingsReused: jobs.length - (build === 'second' ? 3 : 0) });
      for (const job of jobs) expect(readFileSync(join(next.out, job.path, 'index.html'), 'utf8')).toBe(listingDocument(job, siteFrame, script));
    }
  });

  it("keys a listing page by its summaries' record files (path and hash), and its counts' content", () => {
    const model = archiveModelOf(records as unknown as SiteRecord[]);
    const [job] = listingJobs(model, 7);
    const script = 'scripts/browse-filter.0123456789ab.js';
    const key = listingCacheKey('code', frame, script, job!);
    // The same records again (another model, other summary objects): the same key.
    expect(listingCacheKey('code', frame, script, listingJobs(archiveModelOf([...records] as unknown as SiteRecord[]), 7)[0]!)).toBe(key);
    // One of the page's records with other bytes: another key (its summary may differ).
    const listed = job!.view.page.items[3]!.id;
    const changed = records.map((r) => (r.id === listed ? { ...r, sha256: '0'.repeat(64) } : r));
    expect(listingCacheKey('code', frame, script, listingJobs(archiveModelOf(changed as unknown as SiteRecord[]), 7)[0]!)).not.toBe(key);
    // A summary without a record file behind it (made with a classification update's view) goes by its content.
    const copy = structuredClone(job!);
    const byContent = listingCacheKey('code', frame, script, copy);
    expect(listingCacheKey('code', frame, script, structuredClone(job!))).toBe(byContent);
    const items = copy.view.page.items;
    items[3] = { ...items[3]!, excerpt: `${items[3]!.excerpt}!` };
    expect(listingCacheKey('code', frame, script, copy)).not.toBe(byContent);
    // The filters' counts too, though they go into the key by their hash: a count that changes changes the key.
    const counted = structuredClone(job!);
    const [first] = counted.view.counts;
    first!.values[0] = { ...first!.values[0]!, count: first!.values[0]!.count + 1 };
    expect(listingCacheKey('code', frame, script, counted)).not.toBe(key);
    expect(listingCacheKey('code', frame, script, { ...job!, title: 'Other' })).not.toBe(key);
    expect(listingCacheKey('other code', frame, script, job!)).not.toBe(key);
    expect(listingCacheKey('code', frame, 'scripts/other.js', job!)).not.toBe(key);
  });

  it('renders on the main thread whatever the worker threads fail to do', async () => {
    // A function cannot be sent to a worker thread: every batch handed to the pool fails; the page never reads it.
    const unsendable = Object.assign({ notSendable: () => undefined }, frame);
    const dir = tempDir();
    const searchDir = tempDir();
    const run = startRecordPages(records, { frame: unsendable, dir, logger: quiet, threads: 1, searchDir });
    expect((await run.finish()).pages).toBe(records.length);
    // Each record's search document once, though the batches were given to the pool first.
    expect(searchedIds(searchDir)).toEqual(records.map((r) => r.id).sort());
    const jobs = new Map(recordJobs(records).map((j) => [j.page.entry.id, readRecordPage(j)]));
    for (const [id, job] of jobs) expect(readFileSync(join(dir, id, 'index.html'), 'utf8')).toBe(recordDocument(job, siteFrame, echoHtml));
    expect(warnings.splice(0).join('\n')).toMatch(/failed .*; rendering \d+ on the main thread/);
  });

  it('keeps batches queued at its thread, which renders on while the main thread is busy', async () => {
    const many = onDisk(
      ...Array.from({ length: 8 * 64 }, (_, i) =>
        publishRecord(`2026/echo-2026-10-01-${String(i + 1).padStart(6, '0')}.json`, { ...validEcho(), echo: `Record ${i}` }),
      ),
    );
    const cache = { dir: tempDir(), code: 'code', build: 'fill' };
    await startRecordPages(many, { frame, dir: tempDir(), logger: quiet, threads: 1, cache }).finish();
    // Once the first batch is done (its time measured), the rest are queued at the thread at once: as for a build's
    // batches of cached pages (a few milliseconds each), with enough work queued here however slow this machine is.
    const dir = tempDir();
    let firstDone!: () => void;
    const first = new Promise<void>((resolve) => (firstDone = resolve));
    const run = startRecordPages(many, { frame, dir, logger: quiet, threads: 1, cache: { ...cache, build: 'busy' }, searchDir: tempDir(), onSearchFile: () => firstDone(), queuedMs: 60_000 });
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    // This thread now busy without a break, as with a large page of its own: the thread renders what it was given.
    const pages = () => readdirSync(dir).filter((name) => existsSync(join(dir, name, 'index.html'))).length;
    const until = performance.now() + 20_000;
    while (pages() < many.length && performance.now() < until);
    expect(pages()).toBe(many.length);
    expect((await run.finish()).reused).toBe(many.length);
  });

  it('queues about 600 ms of work at each thread (150 ms at the end), at least the next batch, at most 256; 64 before a batch is timed', () => {
    expect(batchesToQueue(3)).toBe(200);
    expect(batchesToQueue(15)).toBe(40);
    expect(batchesToQueue(100)).toBe(6);
    expect(batchesToQueue(2_000)).toBe(2);
    expect(batchesToQueue(0)).toBe(64);
    expect(batchesToQueue(15, 150)).toBe(10);
    expect(batchesToQueue(10, 10_000)).toBe(256);
    expect(batchesToQueue(0.5)).toBe(256);
  });

  it('reckons a batch by the median of the last five timed: one slow batch does not shorten the queue, a run of them does', () => {
    const timed = batchTimes();
    expect(timed.ms).toBe(0);
    timed.add(40); // the thread's first batch, slow
    expect(timed.ms).toBe(40);
    for (const ms of [3, 3, 3]) timed.add(ms);
    expect(timed.ms).toBe(3);
    timed.add(50); // a collection
    expect(timed.ms).toBe(3);
    timed.add(60); // rendered pages now: 3, 3, 3, 50, 60
    expect(timed.ms).toBe(3);
    timed.add(60); // 3, 3, 50, 60, 60
    expect(timed.ms).toBe(50);
    timed.add(60);
    expect(timed.ms).toBe(60);
  });

  it('starts its threads before the records are known, and renders them once they are', async () => {
    const dir = tempDir();
    let resolve!: (r: typeof records) => void;
    const run = startRecordPages(new Promise<typeof records>((r) => (resolve = r)), { frame, dir, logger: quiet, threads: 1 });
    await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(dir)).toEqual([]);
    resolve(records.slice(0, 10));
    expect((await run.finish()).pages).toBe(10);
    expect(readdirSync(dir)).toHaveLength(20);
  });

  it('renders the record pages on its threads while the listing pages are still unknown, then the listing pages', async () => {
    const dir = tempDir();
    const jobs = listingJobs(archiveModelOf(records as unknown as SiteRecord[]), 7);
    let resolve!: (j: typeof jobs) => void;
    const listings = { dir: tempDir(), script: 'scripts/browse-filter.0123456789ab.js', jobs: new Promise<typeof jobs>((r) => (resolve = r)) };
    const searched: string[] = [];
    const run = startRecordPages(records, { frame, dir, logger: quiet, threads: 1, listings, searchDir: tempDir(), onSearchFile: (_, ids) => searched.push(...ids) });
    // Every record page is done on the thread before the listing pages' jobs come.
    for (let waited = 0; searched.length < records.length && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(searched.sort()).toEqual(records.map((r) => r.id).sort());
    expect(readdirSync(listings.dir)).toEqual([]);
    resolve(jobs);
    expect(await run.finish()).toMatchObject({ pages: records.length, listings: jobs.length });
    for (const job of jobs) expect(readFileSync(join(listings.dir, job.path, 'index.html'), 'utf8')).toBe(listingDocument(job, siteFrame, listings.script));
  });

  it('stops cleanly, the record pages done, when the listing pages never come', async () => {
    const dir = tempDir();
    const failing = Promise.reject(new Error('no model'));
    const run = startRecordPages(records, { frame, dir, logger: quiet, threads: 1, listings: { dir: tempDir(), script: 'scripts/x.js', jobs: failing } });
    await expect(run.finish()).rejects.toThrow('no model');
    await run.stop();
    // Stopped once its threads have done every record page and wait for the listing pages, which never come.
    const searched: string[] = [];
    const pending = startRecordPages(records, {
      frame,
      dir: tempDir(),
      logger: quiet,
      threads: 1,
      listings: { dir: tempDir(), script: 'scripts/x.js', jobs: new Promise(() => {}) },
      searchDir: tempDir(),
      onSearchFile: (_, ids) => searched.push(...ids),
    });
    for (let waited = 0; searched.length < records.length && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    expect(searched).toHaveLength(records.length);
    await pending.stop();
  });

  it('renders nothing when reading the archive fails, and stops cleanly', async () => {
    const dir = tempDir();
    const run = startRecordPages(Promise.reject(new Error('invalid archive')), { frame, dir, logger: quiet, threads: 1 });
    await run.stop();
    expect(readdirSync(dir)).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('stop() ends the workers without waiting for the pages', async () => {
    const dir = tempDir();
    const run = startRecordPages(records, { frame, dir, logger: quiet, threads: 1 });
    await run.stop();
    expect(readdirSync(dir).length).toBeLessThan(2 * records.length);
  });
});

describe('publishRawRecord', () => {
  it('places the validated file itself (a link), and refuses a file changed since it was validated', () => {
    const [record] = onDisk(publishRecord('2026/echo-2026-11-21-000001.json'));
    const dir = tempDir();
    const { how, bytes } = publishRawRecord(record!, dir);
    expect(how).toBe('linked');
    expect(bytes).toEqual(record!.bytes); // what the page is rendered from
    expect(readFileSync(join(dir, `${record!.id}.json`))).toEqual(record!.bytes);
    // the previous build's file, left as it is; a stale one replaced
    expect(publishRawRecord(record!, dir).changed).toBe(false);
    unlinkSync(join(dir, `${record!.id}.json`)); // not written through the link: that is the record's own file
    writeFileSync(join(dir, `${record!.id}.json`), 'stale');
    expect(publishRawRecord(record!, dir).changed).toBe(true);
    expect(readFileSync(join(dir, `${record!.id}.json`))).toEqual(record!.bytes);
    writeFileSync(record!.file, '{"changed": true}');
    expect(() => publishRawRecord(record!, tempDir())).toThrow(/changed on disk after it was validated/);
  });

  it('does not read the file again when it is the one validation read, unchanged since before the build started', () => {
    const [record] = onDisk(publishRecord('2026/echo-2026-11-21-000001.json'));
    const dir = tempDir();
    publishRawRecord(record!, dir); // the last build's link (a new link is a change of the file's status too)
    const { dev, ino, ctimeNs } = statSync(record!.file, { bigint: true });
    const identity = `${dev}:${ino}`;
    let started = fileSystemNow(dir)!; // the build started after the file last changed (the next tick of the clock)
    while (started <= ctimeNs) started = fileSystemNow(dir)!;
    // A wrong hash shows whether the file was read: known, it is not (the hash is what validation found).
    const known = { ...record!, identity, sha256: '0'.repeat(64) };
    expect(publishRawRecord(known, dir, started)).toEqual({ how: 'linked', changed: false });
    expect(readFileSync(join(dir, `${record!.id}.json`))).toEqual(record!.bytes);
    // Read and checked: another file than validation read, a build that started before the file's last change, or
    // no start given.
    expect(() => publishRawRecord({ ...known, identity: `${dev}:${ino + 1n}` }, dir, started)).toThrow(/changed on disk after it was validated/);
    expect(() => publishRawRecord(known, dir, ctimeNs)).toThrow(/changed on disk after it was validated/);
    expect(() => publishRawRecord(known, dir)).toThrow(/changed on disk after it was validated/);
    expect(publishRawRecord({ ...record!, identity }, dir).bytes).toEqual(record!.bytes);
    // Written to since (through either of its names): its change time is new, so it is read and refused.
    writeFileSync(join(dir, `${record!.id}.json`), '{"changed": true}');
    expect(() => publishRawRecord({ ...record!, identity }, dir, started)).toThrow(/changed on disk after it was validated/);
  });

  it('keeps the file validation read when the record file was replaced since, and checks it, without looking at the new one', () => {
    const [record] = onDisk(publishRecord('2026/echo-2026-11-21-000001.json'));
    const dir = tempDir();
    publishRawRecord(record!, dir); // the last build's link
    const { dev, ino, ctimeNs } = statSync(record!.file, { bigint: true });
    let started = fileSystemNow(dir)!;
    while (started <= ctimeNs) started = fileSystemNow(dir)!;
    // Replaced after validation read it: a new file renamed over the old name. The old file lost a name, which is a
    // change of its status, so its bytes are read and checked: they are the validated ones, and stay published.
    writeFileSync(`${record!.file}.new`, '{"replaced": true}');
    renameSync(`${record!.file}.new`, record!.file);
    expect(publishRawRecord({ ...record!, identity: `${dev}:${ino}` }, dir, started)).toEqual({ how: 'linked', changed: false, bytes: record!.bytes });
    expect(readFileSync(join(dir, `${record!.id}.json`))).toEqual(record!.bytes); // the validated bytes, as the index says
  });
});

describe('readRawRecord (astro dev\'s /records/<id>.json)', () => {
  it('gives the validated file\'s bytes, and refuses a file changed since it was validated', () => {
    const [record] = onDisk(publishRecord('2026/echo-2026-11-21-000001.json'));
    expect(readRawRecord(record!)).toEqual(record!.bytes);
    writeFileSync(record!.file, '{"changed": true}');
    expect(() => readRawRecord(record!)).toThrow(/2026\/echo-2026-11-21-000001\.json\) changed on disk after it was validated/);
  });
});

describe('finishSiteFolder', () => {
  const file = (dir: string, path: string, text: string) => (mkdirSync(join(dir, path, '..'), { recursive: true }), writeFileSync(join(dir, path), text));
  it("moves Astro's files in beside the build's (only those that changed), removes what the build did not place", () => {
    const site = tempDir();
    const out = tempDir();
    file(site, 'records/echo-a/index.html', 'page');
    file(site, 'browse/record_kind/echo/index.html', 'listing');
    file(site, 'index.html', 'astro, last build');
    file(site, 'about/index.html', 'astro, unchanged');
    file(site, 'gone/index.html', 'a page of the last build only');
    file(out, 'index.html', 'astro, this build');
    file(out, 'about/index.html', 'astro, unchanged');
    file(out, 'browse/record_kind/index.html', 'counts');
    const unchanged = statSync(join(site, 'about/index.html')).ino;
    const files = new Set(['records/echo-a/index.html', 'browse/record_kind/echo/index.html']);
    const finished = finishSiteFolder({ dir: site, own: false }, { out }, files);
    expect({ ...finished, astro: [...finished.astro].sort() }).toEqual({ astro: ['about/index.html', 'browse/record_kind/index.html', 'index.html'], moved: 2, removed: 1 });
    expect(readFileSync(join(site, 'index.html'), 'utf8')).toBe('astro, this build');
    expect(readFileSync(join(site, 'browse/record_kind/index.html'), 'utf8')).toBe('counts');
    expect(readFileSync(join(site, 'browse/record_kind/echo/index.html'), 'utf8')).toBe('listing');
    expect(statSync(join(site, 'about/index.html')).ino).toBe(unchanged); // the same bytes: left as it was
    expect(existsSync(join(site, 'gone'))).toBe(false); // the file and its folder, left empty
    expect(files.has('index.html')).toBe(true);
  });

  it('refuses a file of Astro\'s where the build placed one', () => {
    const site = tempDir();
    const out = tempDir();
    file(site, 'browse/index.html', 'listing');
    file(out, 'browse/index.html', 'astro');
    expect(() => finishSiteFolder({ dir: site, own: false }, { out }, new Set(['browse/index.html']))).toThrow(
      "browse/index.html: a page of the archive's would replace a file Astro built there",
    );
  });

  it("a bare astro build's own folder takes the place of Astro's output", () => {
    const root = tempDir();
    const site = join(root, 'site');
    const out = join(root, 'out');
    file(site, 'records/echo-a.json', '{}');
    file(out, 'index.html', 'astro');
    finishSiteFolder({ dir: site, own: true }, { out }, new Set(['records/echo-a.json']));
    expect(existsSync(site)).toBe(false);
    expect(readFileSync(join(out, 'records/echo-a.json'), 'utf8')).toBe('{}');
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('astro');
  });
});

describe('recordPageThreads', () => {
  it('is one per core besides the main thread, at least 1 and at most 4, unless RECORD_PAGE_THREADS says otherwise', () => {
    expect(recordPageThreads({}, 2)).toBe(1);
    expect(recordPageThreads({}, 3)).toBe(2);
    expect(recordPageThreads({}, 1)).toBe(1);
    expect(recordPageThreads({}, 16)).toBe(4);
    expect(recordPageThreads({ RECORD_PAGE_THREADS: '0' }, 8)).toBe(0);
    expect(recordPageThreads({ RECORD_PAGE_THREADS: ' 3 ' }, 2)).toBe(3);
    for (const bad of ['-1', '1.5', 'two', '65']) {
      expect(() => recordPageThreads({ RECORD_PAGE_THREADS: bad }, 2)).toThrow(/RECORD_PAGE_THREADS must be a whole number/);
    }
  });
});

describe('recordPageId (astro dev)', () => {
  it('finds the record id of a record page request under the base path', () => {
    expect(recordPageId('/records/echo-2026-11-21-000001/', '/')).toBe('echo-2026-11-21-000001');
    expect(recordPageId('/records/echo-2026-11-21-000001/index.html?x=1', '/')).toBe('echo-2026-11-21-000001');
    expect(recordPageId('/archive/records/a%20b/', '/archive/')).toBe('a b');
  });

  it('leaves every other request to Astro', () => {
    for (const url of ['/records/', '/records/x.json', '/records/x', '/records/x/y/', '/browse/', '/archive/records/x/', '/records/%E0%A4%A/']) {
      expect(recordPageId(url, '/')).toBeUndefined();
    }
  });
});

describe('listingPagePath (astro dev)', () => {
  it('finds the listing page a request names under the base path', () => {
    expect(listingPagePath('/browse/', '/')).toBe('browse/');
    expect(listingPagePath('/browse/3/index.html?x=1', '/')).toBe('browse/3/');
    expect(listingPagePath('/archive/browse/record_kind/echo_v3/2/', '/archive/')).toBe('browse/record_kind/echo_v3/2/');
    // a facet's counts page is a path too: no listing job has it, so the archive's pages serve it (archivePagePath)
    expect(listingPagePath('/browse/record_kind/', '/')).toBe('browse/record_kind/');
  });

  it('leaves every other request to Astro', () => {
    for (const url of ['/browse/records.json', '/browse', '/records/x/', '/archive/browse/', '/browse/%E0%A4%A/']) {
      expect(listingPagePath(url, '/')).toBeUndefined();
    }
  });
});

describe('archivePagePath (astro dev)', () => {
  it('finds the page made from the whole archive that a request names under the base path', () => {
    expect(archivePagePath('/', '/')).toBe('index.html');
    expect(archivePagePath('/archive/?x=1', '/archive/')).toBe('index.html');
    expect(archivePagePath('/browse/record_kind/', '/')).toBe('browse/record_kind/index.html');
    expect(archivePagePath('/guardians/', '/')).toBe('guardians/index.html');
    expect(archivePagePath('/guardians/guardian_ed25519_0123456789abcdef/', '/')).toBe('guardians/guardian_ed25519_0123456789abcdef/index.html');
    for (const path of ['api/index.json', 'api/index/12.json', 'api/log.json', 'api/guardian-registry.json', 'feeds/records.atom', 'feeds/records.json', 'sitemap.xml', 'sitemap-2.xml', 'llms.txt', 'llms-full.txt', 'browse/records.json']) {
      expect(archivePagePath(`/archive/${path}`, '/archive/'), path).toBe(path);
    }
  });

  it('leaves every other request to Astro', () => {
    for (const url of ['/agents/', '/search/', '/api/echo-record-schema.v3.json', '/api/index/x.json', '/browse/record_kind/echo_v3/', '/records/x/', '/archive/', '/sitemap-.xml', '/%E0%A4%A/']) {
      expect(archivePagePath(url, '/'), url).toBeUndefined();
    }
  });
});
