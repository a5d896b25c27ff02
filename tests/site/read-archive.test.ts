/**
 * The site's way into the archive (src/site/build/2-read-archive.ts): the validated records with their hashes and files,
 * an invalid archive refused with the validate command's report, a missing folder refused with what to do.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveBuildError, InvalidArchiveError, PAGE_ONLY_FIELDS, readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { atomFeed, jsonFeed } from '../../src/core/publish/feeds.ts';
import { buildPublicIndex } from '../../src/core/publish/public-index.ts';
import { buildSitemap } from '../../src/core/publish/sitemap.ts';
import { parsedRecord } from '../../src/site/build/4-raw-records.ts';
import { recordExcerpt, relations, summarize, summarizeRecord } from '../../src/site/model/archive-model.ts';
import { facetCounts } from '../../src/site/model/facets.ts';
import { publishRecord } from '../publish/helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const quiet = { info: () => undefined, warn: () => undefined };

function archive(files: Record<string, string | Buffer>): string {
  const root = tempDir('echo-archive-source-');
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
  return root;
}

describe('readSiteArchive', () => {
  it('gives each valid record in archive-path order, with the SHA-256 of its file and the file, not its bytes', async () => {
    const a = publishRecord('2026/echo-2026-11-21-000002.json');
    const b = publishRecord('2026/echo-2026-11-20-000001.json');
    const root = archive({ [a.path]: a.bytes, [b.path]: b.bytes, 'README.md': '# Records\n' });
    const records = await readSiteArchive(root, quiet);
    expect(records.map((r) => [r.id, r.sha256, r.file])).toEqual([
      [b.id, b.sha256, join(root, b.path)],
      [a.id, a.sha256, join(root, a.path)],
    ]);
    // The bytes are read again where a file is published (src/site/build/4-raw-records.ts), not kept for the whole build.
    expect(Object.keys(records[0]!).sort()).toEqual(['archiveDate', 'excerpt', 'file', 'id', 'identity', 'path', 'record', 'sha256']);
    // and the file its hash is of, by device and inode (a published record file that is this one need not be read again)
    const { dev, ino } = statSync(records[0]!.file, { bigint: true });
    expect(records[0]!.identity).toBe(`${dev}:${ino}`);
  });

  it('keeps no echo text nor other page-only field, and every publisher gives the same as from the whole records', async () => {
    // The project's records and the hostile fixtures: echoes long and short, reports, lifecycle links, hostile text.
    const files: Record<string, Buffer> = {};
    for (const [dir, under] of [['records', ''], ['tests/e2e/fixtures/hostile', '2026/']] as const) {
      for (const path of readdirSync(resolve(dir), { recursive: true, encoding: 'utf8' })) {
        if (path.endsWith('.json') && !path.startsWith('.')) files[`${under}${path}`] = readFileSync(resolve(dir, path));
      }
    }
    const records = await readSiteArchive(archive(files), quiet);
    const whole = records.map((r) => ({ ...r, record: parsedRecord(readFileSync(r.file)) as Record<string, unknown> }));
    expect(whole.filter((r) => typeof r.record.echo === 'string').length).toBeGreaterThan(10);
    for (const [i, r] of records.entries()) {
      const full = whole[i]!.record;
      for (const field of PAGE_ONLY_FIELDS) expect(r.record).not.toHaveProperty(field);
      expect(r.record).toEqual(Object.fromEntries(Object.entries(full).filter(([k]) => !PAGE_ONLY_FIELDS.includes(k))));
      expect(r.excerpt).toBe(recordExcerpt(full));
    }
    // What the main thread makes of the records, with and without the page-only fields.
    const config = { baseUrl: 'https://echoes.example.org', gatewayUrl: 'https://gateway.example.org' };
    const publishers = (list: readonly (Omit<(typeof records)[number], 'excerpt'> & { excerpt?: string })[]) => ({
      index: buildPublicIndex(list, { maxBytes: 4096 }),
      atom: atomFeed(list, config),
      json: jsonFeed(list, config),
      sitemap: buildSitemap(list, config),
      summaries: list.map(summarizeRecord), // the kept records' stored excerpt, else worked out from the whole record
      summary: summarize(list.map((r) => r.record)),
      facets: facetCounts(list.map((r) => r.record)),
      relations: relations(list),
    });
    const kept = publishers(records);
    const from = publishers(whole.map(({ excerpt: _, ...r }) => r));
    expect(kept.index).toEqual(from.index);
    expect([kept.atom, kept.json, kept.sitemap]).toEqual([from.atom, from.json, from.sitemap]);
    expect(kept.summaries).toEqual(from.summaries);
    expect([kept.summary, kept.facets, kept.relations]).toEqual([from.summary, from.facets, from.relations]);
  });

  it('refuses an invalid archive with the validate command\'s report', async () => {
    const a = publishRecord('2026/echo-2026-11-21-000002.json');
    const root = archive({ [a.path]: a.bytes, '2026/echo-2026-11-21-000003.json': '{"echo_id": 1' });
    const failure = readSiteArchive(root, quiet);
    await expect(failure).rejects.toBeInstanceOf(InvalidArchiveError);
    await expect(failure).rejects.toThrow(/1 invalid record; fix it and build again:\n\n[\s\S]*echo-2026-11-21-000003\.json/);
  });

  it('refuses a missing archive folder and says how to point at one', async () => {
    const failure = readSiteArchive(join(tmpdir(), 'echo-archive-source-missing', 'records'), quiet);
    await expect(failure).rejects.toBeInstanceOf(ArchiveBuildError);
    await expect(failure).rejects.toMatchObject({ hint: expect.stringContaining('RECORDS_DIR') });
  });

  it('refuses an archive with an interrupted intake accept, and says that, not that the folder is missing', async () => {
    const a = publishRecord('2026/echo-2026-11-21-000002.json');
    const root = archive({ [a.path]: a.bytes, '.intake-journal.json': '{}' });
    const failure = readSiteArchive(root, quiet);
    await expect(failure).rejects.toBeInstanceOf(ArchiveBuildError);
    await expect(failure).rejects.toThrow(/interrupted[\s\S]*npm run intake -- recover/);
    await expect(failure).rejects.not.toMatchObject({ hint: expect.stringContaining('RECORDS_DIR') });
  });
});
