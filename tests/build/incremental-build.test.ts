/**
 * The "done": a build that reuses the build cache writes exactly the bytes a clean build writes. In a copy of
 * the project (so that a renderer file can be changed), `npm run build` (scripts/build.ts: builder bundle, astro
 * build, search index) runs once to fill the cache; then the archive, the configuration and the code are changed in
 * turn, and each time the cached build's whole output is compared, file by file, with a clean build's (--no-cache).
 * The build's own log shows the cache was used (pages reused), so the comparison is not between two clean builds, and
 * whether Astro ran: a build that changes only records runs without it, writing Astro's recorded output
 * (src/site/build/outside-astro.ts); a change of code or configuration, or a damaged recorded file, runs it.
 */
import { execFile, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { fileSystemNowAfter } from '../../src/core/util/change-time.ts';
import { fileIdentity } from '../../src/core/util/file-identity.ts';
import { PRUNE_AFTER } from '../../src/site/build/cache/page-cache.ts';
import { npmScriptArgs } from '../../scripts/lib/npm-script-args.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const NODE = resolve(REPO_ROOT, 'node_modules/.bin/node');
const base = tempDir('echo-incremental-');
const project = join(base, 'project');
const archive = join(base, 'records');
const cache = join(base, 'cache');
const PROJECT_PARTS = ['src', 'public', 'schemas', 'documents', 'examples', 'scripts', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

let env: Record<string, string> = {};
/** The public index's shard size for these builds: small, so that its shards are several and kept between builds. */
const SHARD_BYTES = 4_000;
/** What a build's log says of the public index's shards: how many of the last build's it took, of how many. */
const shardsTaken = (log: string) => {
  const [, taken, of] = /the public index's shards: (\d+) of the last build's (\d+) taken as they were/.exec(log) ?? [];
  return { taken: Number(taken ?? NaN), of: Number(of ?? NaN) };
};

function build(noCache: boolean): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      NODE,
      // A cached build as `npm run build` runs it (package.json: with the stripped-types cache's hook); a clean one
      // without, so that their byte-identical output also shows the hook changes nothing.
      [...(noCache ? ['scripts/build.ts', '--no-cache'] : npmScriptArgs(REPO_ROOT, 'build'))],
      {
        cwd: project,
        env: { ...process.env, RECORDS_DIR: archive, ECHO_ARCHIVE_CACHE_DIR: cache, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', INDEX_SHARD_BYTES: String(SHARD_BYTES), NODE_COMPILE_CACHE: join(base, 'compile-cache'), ...env },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => (err ? fail(new Error(`build failed: ${err.message}\n${stdout}\n${stderr}`)) : done(stdout + stderr)),
    );
  });
}

/** Every file under `dir` (relative path → SHA-256 of its bytes). */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const d of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (d.isFile()) files.set(relative(dir, join(d.parentPath, d.name)), sha256Hex(readFileSync(join(d.parentPath, d.name))));
  }
  return files;
}

/** A cached build, then a clean one: the same files with the same bytes. Returns the cached build's log and output. */
async function cachedEqualsClean(): Promise<{ log: string; files: Map<string, string> }> {
  const log = await build(false);
  const cached = snapshot(join(project, 'dist'));
  rmSync(join(project, 'dist'), { recursive: true });
  await build(true);
  const clean = snapshot(join(project, 'dist'));
  const differing = [...new Set([...cached.keys(), ...clean.keys()])].filter((path) => cached.get(path) !== clean.get(path));
  expect(differing, 'files that differ between the cached and the clean build').toEqual([]);
  expect(cached.size).toBeGreaterThan(50);
  return { log, files: cached };
}

const recordFile = (id: string) => join(archive, '2026', `${id}.json`);
const readRecord = (id: string) => JSON.parse(readFileSync(recordFile(id), 'utf8')) as Record<string, unknown>;
const writeRecord = (id: string, record: unknown) => writeFileSync(recordFile(id), JSON.stringify(record, null, 2) + '\n');
const reused = (log: string) => Number(/Rendered \d+ record pages \((\d+) from the cache/.exec(log)?.[1] ?? NaN);
/** The listing pages of a build, and how many of them came from the cache. */
const listings = (log: string) => {
  const [, all, fromCache] = /Rendered (\d+) listing pages? \((\d+) from the cache/.exec(log) ?? [];
  return { all: Number(all ?? NaN), reused: Number(fromCache ?? NaN) };
};
/** What a build's log says of its site folder: its files, how many were written and removed. */
const siteFolder = (log: string) => {
  const [, files, written, removed] = /Updated the site's (\d+) files in place: (\d+) written, (\d+) removed/.exec(log) ?? [];
  return { files: Number(files ?? NaN), written: Number(written ?? NaN), removed: Number(removed ?? NaN) };
};
/** What a build's log says of the page cache's entries: how many it read and hashed, how many it knew unchanged. */
const entriesUsed = (log: string) => {
  const [, hashed, known] = /Page cache: (\d+) entries read and checked by their hash, (\d+) unchanged since the last build checked them/.exec(log) ?? [];
  return { hashed: Number(hashed ?? NaN), known: Number(known ?? NaN) };
};
/** Whether the build ran without Astro, writing its recorded output. */
const withoutAstro = (log: string) => /build: done \(without astro build/.test(log);
const NOT_RECORDED = /build: running astro build: no output of Astro is recorded for this code and configuration/;
/** The records after the first change: the project's 15, and two added (the rename keeps the count). */
const RECORDS = 17;

beforeAll(async () => {
  mkdirSync(project);
  for (const part of PROJECT_PARTS) cpSync(join(REPO_ROOT, part), join(project, part), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  // The project's records without their transparency log: a rename would drop a logged record, which a build refuses.
  cpSync(join(REPO_ROOT, 'records'), archive, { recursive: true, filter: (source) => !source.includes('.tlog') });
  const first = await build(false);
  expect(reused(first)).toBe(0);
  expect(first).toMatch(NOT_RECORDED);
}, 120_000);

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('a build with the cache writes what a clean build writes', () => {
  it('after adding, modifying and superseding records and renaming a linked report', async () => {
    // add: a new record (a copy of the newest under the next number)
    writeRecord('echo-2026-11-20-000016', { ...readRecord('echo-2026-08-12-000015'), understanding_summary: 'An added record.' });
    // modify: one record's words
    writeRecord('echo-2026-01-20-000002', { ...readRecord('echo-2026-01-20-000002'), echo: 'Changed words of this echo.' });
    // supersede: an older record superseded by a correction added now
    writeRecord('echo-2026-11-21-000017', { ...readRecord('echo-2026-03-02-000005'), understanding_summary: 'The corrected statement.' });
    writeRecord('echo-2026-03-02-000005', { ...readRecord('echo-2026-03-02-000005'), archive_status: 'superseded', superseded_reason: 'Superseded by echo-2026-11-21-000017.' });
    // rename the linked report, and the link in the echo that names it
    renameSync(recordFile('echo-2026-04-11-000007'), recordFile('echo-2026-11-22-000018'));
    const echo = readRecord('echo-2026-04-11-000008');
    writeRecord('echo-2026-04-11-000008', { ...echo, linked_verification_report: { ...(echo.linked_verification_report as object), path: '/2026/echo-2026-11-22-000018.json', report_id: 'echo-2026-11-22-000018' } });

    const { log, files } = await cachedEqualsClean();
    // Astro's pages read nothing these changes touch: the build ran without Astro
    expect(withoutAstro(log)).toBe(true);
    expect(log).toMatch(/Astro's \d+ from its recorded output/);
    // the unchanged records' pages came from the cache; the changed ones (and those whose relations changed) did not
    expect(log).toMatch(new RegExp(`Rendered ${RECORDS} record pages`));
    expect(reused(log)).toBeGreaterThanOrEqual(8);
    expect(reused(log)).toBeLessThan(RECORDS);
    expect(files.has('records/echo-2026-11-22-000018/index.html')).toBe(true);
    expect(files.has('records/echo-2026-04-11-000007/index.html')).toBe(false);
    // the listings the changed records are in were rendered again, the others came from the cache
    const { all, reused: listed } = listings(log);
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThan(all);
    // the public index's shards from the first changed record on were made again (the second record changed: all of
    // them; that those before it are taken is tests/publish/public-index.test.ts's)
    const shards = shardsTaken(log);
    expect(shards.of).toBeGreaterThan(2);
    expect(shards.taken).toBe(0);
  }, 180_000);

  it('after a damaged cache entry: it is not trusted', async () => {
    const pages = join(cache, 'pages');
    const entries = readdirSync(pages, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
    expect(entries.length).toBeGreaterThan(10);
    // A record page (its key has a search document beside it), another record's search document, and a listing page
    // (no search document beside it). Copy before damaging: an entry is a hard link to a page of the last output.
    const keyOf = (name: string) => name.split('.')[0]!;
    const documented = new Set(entries.filter((d) => d.name.endsWith('.json')).map((d) => keyOf(d.name)));
    const page = entries.find((d) => d.name.endsWith('.html') && documented.has(keyOf(d.name)))!;
    const listing = entries.find((d) => d.name.endsWith('.html') && !documented.has(keyOf(d.name)))!;
    const searchDocument = entries.find((d) => d.name.endsWith('.json') && !d.name.startsWith(page.name.split('.')[0]!))!;
    for (const [entry, damage] of [[page, '<p>not what was rendered</p>'], [searchDocument, ' '], [listing, '<p>not what was rendered</p>']] as const) {
      const victim = join(entry.parentPath, entry.name);
      const bytes = readFileSync(victim);
      unlinkSync(victim);
      writeFileSync(victim, bytes);
      appendFileSync(victim, damage);
    }
    const { log } = await cachedEqualsClean();
    expect(reused(log)).toBe(RECORDS - 1);
    expect(listings(log).reused).toBe(listings(log).all - 1);
  }, 180_000);

  it('after a search document damaged in the cache and read to make its segment: made on the main thread, the entry removed', async () => {
    const pages = join(cache, 'pages');
    const documents = readdirSync(pages, { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && d.name.endsWith('.json'));
    const victim = join(documents[0]!.parentPath, documents[0]!.name);
    const bytes = readFileSync(victim);
    unlinkSync(victim);
    writeFileSync(victim, bytes);
    appendFileSync(victim, ' ');
    // Every segment of the index made again: the index's own cache gone.
    rmSync(join(cache, 'search-index'), { recursive: true, force: true });
    await cachedEqualsClean();
    expect(existsSync(victim)).toBe(false);
    // The next build makes the document on a page thread and stores it again.
    await cachedEqualsClean();
    const key = documents[0]!.name.split('.')[0]!;
    expect(readdirSync(documents[0]!.parentPath).some((name) => name.startsWith(`${key}.`) && name.endsWith('.json'))).toBe(true);
  }, 180_000);

  it('after a configuration change (the site URL and base path)', async () => {
    env = { SITE_URL: 'https://archive.example.org/echoes/' };
    const { log, files } = await cachedEqualsClean();
    expect(reused(log)).toBe(0); // every page links under the new base
    expect(listings(log).reused).toBe(0);
    expect(log).toMatch(NOT_RECORDED); // Astro's pages link under it too
    expect(readFileSync(join(project, 'dist/index.html'), 'utf8')).toContain('/echoes/');
    expect(files.size).toBeGreaterThan(50);
  }, 180_000);

  it('after a change to a renderer file', async () => {
    const renderer = join(project, 'src/site/render/record-page/submitted.ts');
    const text = readFileSync(renderer, 'utf8');
    expect(text).toContain('Submitted text');
    writeFileSync(renderer, text.replaceAll('Submitted text', 'Text as submitted'));
    const { log } = await cachedEqualsClean();
    expect(reused(log)).toBe(0);
    expect(log).toMatch(NOT_RECORDED);
    expect(readFileSync(join(project, 'dist/records/echo-2026-01-14-000001/index.html'), 'utf8')).toContain('Text as submitted');
  }, 180_000);

  it('and with nothing changed, every page comes from the cache', async () => {
    const { log, files } = await cachedEqualsClean();
    expect(reused(log)).toBe(RECORDS);
    expect(shardsTaken(log).taken).toBe(shardsTaken(log).of); // and every shard of the public index
    expect(files.has('api/index/3.json')).toBe(true);
    expect(listings(log).all).toBeGreaterThan(20);
    expect(listings(log).reused).toBe(listings(log).all);
    // and every compressed file of the search index (all but index.json)
    const [, written, fromCache] = /Wrote the search index: \d+ records in (\d+) files \(\d+ changed, (\d+) from the cache/.exec(log) ?? [];
    expect(Number(written)).toBeGreaterThan(10);
    expect(Number(fromCache)).toBe(Number(written) - 1);
    // The site is updated in place: built twice more, the second build's folder (the first's spare) needs no write.
    expect(withoutAstro(log)).toBe(true);
    await build(false);
    const last = await build(false);
    const again = siteFolder(last);
    expect(again.files).toBe(files.size);
    expect(again).toMatchObject({ written: 0, removed: 0 });
    expect(withoutAstro(last)).toBe(true);
    // A shard of the public index taken from the cache is its entry, linked into the site (not written).
    const shardEntries = readdirSync(join(cache, 'public-index', 'entries'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile() && d.name.endsWith('.json'));
    const inodes = new Set(shardEntries.map((d) => statSync(join(d.parentPath, d.name)).ino));
    expect(inodes.has(statSync(join(project, 'dist', 'api', 'index', '1.json')).ino)).toBe(true);
    // The builds loaded the project's modules through the stripped-types cache (package.json's build), one entry a module.
    const stripped = readdirSync(join(cache, 'stripped-types'));
    expect(stripped.length).toBeGreaterThan(100);
    expect(stripped.length).toBe(new Set(stripped.map((name) => name.split('.')[0])).size);
  }, 240_000);

  it("a clean build's pages are left as they are and known by their own status; a page edited in place is replaced", async () => {
    // The last build updated the site folder of a clean build, whose pages hold their entries' bytes in files of their
    // own: it left them as they are (noted as their entries' pages: src/site/build/cache/placed-pages.ts) rather than
    // link each entry in, which changes the entry's change time too and had the next build read and hash every one.
    const id = 'echo-2026-01-14-000001';
    const pageIn = (folder: string) => join(project, folder, 'records', id, 'index.html');
    expect(statSync(pageIn('dist')).nlink).toBe(1);
    const one = await build(false); // the other folder, whose pages are links to their entries
    expect(entriesUsed(one).hashed).toBe(0);
    expect(entriesUsed(one).known).toBeGreaterThan(RECORDS);
    // The clean build's page, in the spare now, edited in place: its change time is new, so the next build there looks
    // at its entry (unchanged, known), finds other bytes in the page and replaces it with a link to the entry.
    const copy = pageIn('.dist.spare');
    expect(statSync(copy).nlink).toBe(1);
    const original = readFileSync(copy, 'utf8');
    writeFileSync(copy, original.replace('</main>', '<p>edited</p></main>'));
    const two = await build(false);
    expect(entriesUsed(two)).toEqual(entriesUsed(one));
    expect(siteFolder(two)).toMatchObject({ written: 1, removed: 0 });
    expect(readFileSync(pageIn('dist'), 'utf8')).toBe(original);
    expect(statSync(pageIn('dist')).nlink).toBeGreaterThan(1);
    // and every published record file is the very file validation read, unchanged since before the build: not read again
    expect(two).toContain(`Published ${RECORDS} raw records (${RECORDS} linked, 0 copied; ${RECORDS} the very file validation read, unchanged, not read again)`);
    // A page that is a link to its entry (the one just replaced, in the spare after one more build), edited in place:
    // the entry is damaged too, but its change time is new. The next build there checks it by its hash, refuses it
    // and renders the page.
    expect(entriesUsed(await build(false)).hashed).toBe(0);
    const linked = pageIn('.dist.spare');
    expect(statSync(linked).nlink).toBeGreaterThan(1);
    writeFileSync(linked, readFileSync(linked, 'utf8').replace('</main>', '<p>edited</p></main>'));
    const { log } = await cachedEqualsClean();
    expect(reused(log)).toBe(RECORDS - 1);
    expect(entriesUsed(log).hashed).toBeGreaterThanOrEqual(1);
    expect(entriesUsed(log).known).toBeGreaterThan(RECORDS);
  }, 240_000);

  it("a file put in the records' folder, and a record gone from the archive: the next build there removes their files", async () => {
    // The spare was last updated in place by a build with the cache, which noted its records' folder as holding its
    // records' folders and raw files alone (src/site/build/cache/record-folders-stamp.ts). A stray file put there
    // changes the folder, which the next build there then walks, and the stray goes.
    writeFileSync(join(project, '.dist.spare', 'records', 'stray.json'), '{}');
    await cachedEqualsClean();
    // A record added, built into both site folders, then gone from the archive: the next build finds one record's
    // folder fewer than the last build there left, walks the records' folder after all and removes the gone record's
    // page and raw file.
    const id = 'echo-2026-11-24-000030';
    writeRecord(id, { ...readRecord('echo-2026-08-12-000015'), understanding_summary: 'A record soon gone.' });
    await build(false);
    await build(false);
    expect(existsSync(join(project, '.dist.spare', 'records', `${id}.json`))).toBe(true);
    unlinkSync(recordFile(id));
    const { files } = await cachedEqualsClean();
    expect([...files.keys()].some((path) => path.includes(id))).toBe(false);
    // A file the last build there placed in the records' folder besides the records' own (as Astro's redirect of
    // /records/ is), which the next build does not place: it is in the note, so listed and removed without a walk.
    // Made here by hand in a settled spare (two builds with the cache, one in each folder): the file, then the note
    // naming it, with a moment after it.
    await build(false);
    await build(false);
    const spare = join(project, '.dist.spare');
    writeFileSync(join(spare, 'records', 'gone.html'), 'x');
    const notes = join(cache, 'record-folders.json');
    const note = JSON.parse(readFileSync(notes, 'utf8')) as { folders: Record<string, { before: string; besides?: string[] }> };
    const folder = note.folders[fileIdentity(lstatSync(spare, { bigint: true }))]!;
    expect(folder.besides).toEqual(['index.html']);
    folder.besides!.push('gone.html');
    folder.before = String(fileSystemNowAfter(spare, [join(spare, 'records')]));
    writeFileSync(notes, JSON.stringify(note));
    await cachedEqualsClean();
  }, 240_000);

  it('a build that stores a few entries leaves the cache unpruned, counting them in the stamp, and prunes once they add up', async () => {
    const pages = join(cache, 'pages');
    const stamp = join(pages, 'checked-before');
    const htmlEntries = () => readdirSync(pages, { recursive: true }).filter((name) => String(name).endsWith('.html')).length;
    const pagesBuilt = (log: string) => Number(/Rendered (\d+) record pages/.exec(log)?.[1]) + listings(log).all;
    const storedSince = (log: string) => /not pruned: (\d+) entries stored since the last prune/.exec(log)?.[1];
    // Settled first: two builds in a row (one in each of the two site folders the builds update in turn) that wrote
    // nothing, pruned nothing and stored nothing (the count in the stamp unchanged), so that the next builds check
    // nothing by its hash but what they store.
    let inARow = 0;
    let settled: string | undefined;
    for (let i = 0; i < 6 && inARow < 2; i++) {
      const log = await build(false);
      const now = storedSince(log);
      inARow = /Updated the site's \d+ files in place: 0 written/.test(log) && now !== undefined && now === settled ? inARow + 1 : 0;
      settled = now;
    }
    expect(inARow).toBe(2);
    // One record's words changed: its page, search document and listings are stored anew, their old entries left.
    const id = 'echo-2026-01-20-000002';
    writeRecord(id, { ...readRecord(id), echo: 'Changed once more.' });
    const notPruned = await build(false);
    const stored = storedSince(notPruned);
    expect(Number(stored) - Number(settled)).toBeGreaterThanOrEqual(2);
    expect(readFileSync(stamp, 'utf8').split('\n')[2]).toBe(stored);
    expect(htmlEntries()).toBeGreaterThan(pagesBuilt(notPruned));
    // Once the entries stored since the last prune reach PRUNE_AFTER, the build prunes: the cache holds its pages alone.
    const [format, moment] = readFileSync(stamp, 'utf8').split('\n');
    writeFileSync(stamp, `${format}\n${moment}\n${PRUNE_AFTER - 1}\n`);
    writeRecord(id, { ...readRecord(id), echo: 'Changed again.' });
    const { log } = await cachedEqualsClean();
    expect(log).toMatch(/\(pruned\)/);
    expect(htmlEntries()).toBe(pagesBuilt(log));
    expect(readFileSync(stamp, 'utf8').split('\n')[2]).toBe('0');
  }, 240_000);

  it("after a file of Astro's recorded output is damaged: Astro runs after all", async () => {
    const stored = join(cache, 'astro-output/files');
    const victim = join(stored, readdirSync(stored)[0]!);
    appendFileSync(victim, 'x');
    const { log } = await cachedEqualsClean();
    expect(log).toMatch(/build: running astro build: a file of Astro's recorded output is missing or damaged/);
    expect(withoutAstro(log)).toBe(false);
    // and Astro's output is recorded again: the next build runs without it
    expect(withoutAstro(await build(false))).toBe(true);
  }, 180_000);

  it('with an invalid record, a build without Astro fails with the report, and leaves the site as it was', async () => {
    expect(withoutAstro(await build(false))).toBe(true);
    const before = snapshot(join(project, 'dist'));
    writeRecord('echo-2026-11-23-000019', { ...readRecord('echo-2026-08-12-000015'), context_depth: 'C0_homepage_only' });
    try {
      const failure = await build(false).then(
        () => '',
        (err: Error) => err.message,
      );
      expect(failure).toMatch(/The archive has 1 invalid record; fix it and build again/);
      expect(failure).toContain('echo-2026-11-23-000019.json');
      expect(failure).toMatch(/build: the build failed \(InvalidArchiveError\)/);
      expect(snapshot(join(project, 'dist'))).toEqual(before);
    } finally {
      rmSync(recordFile('echo-2026-11-23-000019'));
    }
  }, 180_000);

  it('after a build that was killed half-way: the folder it left is repaired', async () => {
    // What a killed build leaves: its staging folder (the spare it took, half updated) and Astro's output beside it.
    const dead = spawnSync('true').pid!;
    const left = join(project, `.dist.building-${dead}`);
    renameSync(join(project, '.dist.spare'), left);
    mkdirSync(`${left}.astro`);
    writeFileSync(join(`${left}.astro`, 'index.html'), 'half');
    rmSync(join(left, 'records/echo-2026-01-14-000001/index.html'));
    const indexFile = readdirSync(join(left, 'search-index'), { recursive: true, withFileTypes: true }).find((d) => d.isFile())!;
    const cut = join(indexFile.parentPath, indexFile.name);
    writeFileSync(cut, readFileSync(cut).subarray(0, 3)); // not a link: the index's files are written
    writeFileSync(join(left, 'stray.html'), 'from nowhere');
    mkdirSync(join(left, 'records/echo-9999-01-01-000001'), { recursive: true });
    writeFileSync(join(left, 'records/echo-9999-01-01-000001/index.html'), 'a record that is gone');
    // Left in records' own folders, which the page threads list as they place each page: a file, a folder of folders.
    writeFileSync(join(left, 'records/echo-2026-01-14-000001/notes.txt'), 'left over');
    mkdirSync(join(left, 'records/echo-2026-08-12-000015/old/deeper'), { recursive: true });
    writeFileSync(join(left, 'records/echo-2026-08-12-000015/old/deeper/index.html'), 'left over');
    rmSync(join(left, 'policies'), { recursive: true });
    writeFileSync(join(left, 'policies'), 'a file where a folder belongs');
    const { log } = await cachedEqualsClean();
    expect(siteFolder(log).written).toBeGreaterThanOrEqual(3);
    expect(siteFolder(log).removed).toBeGreaterThanOrEqual(4);
    expect(readdirSync(project).filter((name) => name.includes('.building-') || name.includes('.previous-'))).toEqual([]);
  }, 180_000);

  it("a file put in a record's folder of the output after a build is removed when that folder is next updated", async () => {
    // Each build notes when its record folders last held their pages alone, and the next build in the same folder reads
    // only those changed since (src/site/build/cache/record-folders-stamp.ts): after two builds, dist/ and its spare
    // have a note each (a clean build notes nothing).
    await build(false);
    await build(false);
    const notes = JSON.parse(readFileSync(join(cache, 'record-folders.json'), 'utf8')) as { folders: Record<string, unknown> };
    const folderKey = (dir: string) => ((s) => `${s.dev}:${s.ino}`)(statSync(join(project, dir), { bigint: true }));
    expect(Object.keys(notes.folders)).toEqual(expect.arrayContaining([folderKey('dist'), folderKey('.dist.spare')]));
    // A deploy step that compresses a page beside it, in dist/: the build after next updates that folder again.
    writeFileSync(join(project, 'dist/records/echo-2026-01-14-000001/index.html.gz'), 'compressed by a deploy step');
    expect(siteFolder(await build(false))).toMatchObject({ written: 0, removed: 0 });
    const { log } = await cachedEqualsClean();
    expect(siteFolder(log)).toMatchObject({ written: 0, removed: 1 });
  }, 240_000);
});
