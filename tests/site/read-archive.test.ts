/**
 * The site's way into the archive (src/site/build/2-read-archive.ts): the validated records with their hashes and files,
 * an invalid archive refused with the validate command's report, a missing folder refused with what to do.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveBuildError, InvalidArchiveError, readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { parsedRecord } from '../../src/site/build/4-raw-records.ts';
import { recordExcerpt, summarizeRecord } from '../../src/site/model/archive-model.ts';
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
    expect(Object.keys(records[0]!).sort()).toEqual(['archiveDate', 'excerpt', 'file', 'id', 'path', 'record', 'sha256']);
  });

  it('keeps no echo text: each record is whole but for its echo, which its page reads from the file, and has its list excerpt', async () => {
    // The project's own records: echoes long and short, reports, records without an echo.
    const root = resolve('records');
    const records = await readSiteArchive(root, quiet);
    const withEcho = records.filter((r) => typeof parsedRecord(readFileSync(r.file)).echo === 'string');
    expect(withEcho.length).toBeGreaterThan(0);
    for (const r of records) {
      const full = parsedRecord(readFileSync(r.file));
      expect(r.record).not.toHaveProperty('echo');
      const { echo: _, ...rest } = full;
      expect(r.record).toEqual(rest);
      expect(r.excerpt).toBe(recordExcerpt(full));
      expect(summarizeRecord(r)).toEqual(summarizeRecord({ ...r, record: full, excerpt: undefined }));
    }
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
});
