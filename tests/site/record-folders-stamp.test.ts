/**
 * The note of when a site folder's record folders last held their pages alone (src/site/build/cache/record-folders-stamp.ts):
 * found again for the same folder (by its device and inode, so through a rename) and the same code only, the newest
 * folders kept, and no moment from a damaged or foreign note. The whole build's use of it (a file put in a record's
 * folder is still removed): tests/build/incremental-build.test.ts.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noteRecordFoldersAlone, recordFoldersNote } from '../../src/site/build/cache/record-folders-stamp.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const folder = (parent: string, name: string) => {
  const dir = join(parent, name);
  mkdirSync(dir);
  return dir;
};

describe('record folders noted alone', () => {
  it('gives the moment noted for the same site folder and code, and none for another folder or code', () => {
    const cache = tempDir('echo-stamp-cache-');
    const parent = tempDir('echo-stamp-site-');
    const site = folder(parent, 'dist');
    const other = folder(parent, 'other');
    expect(recordFoldersNote(cache, site, 'code')?.before).toBeUndefined();
    noteRecordFoldersAlone(cache, site, 'code', 1_795_927_258_745_988_154n);
    expect(recordFoldersNote(cache, site, 'code')?.before).toBe(1_795_927_258_745_988_154n);
    expect(recordFoldersNote(cache, site, 'other code')?.before).toBeUndefined();
    expect(recordFoldersNote(cache, other, 'code')?.before).toBeUndefined();
    expect(recordFoldersNote(cache, join(parent, 'missing'), 'code')?.before).toBeUndefined();
    // A note for another folder keeps the first one's.
    noteRecordFoldersAlone(cache, other, 'code', 7n);
    expect(recordFoldersNote(cache, other, 'code')?.before).toBe(7n);
    expect(recordFoldersNote(cache, site, 'code')?.before).toBe(1_795_927_258_745_988_154n);
  });

  it('follows the folder when it is renamed (dist/ becomes the spare)', () => {
    const cache = tempDir('echo-stamp-cache-');
    const parent = tempDir('echo-stamp-site-');
    const site = folder(parent, 'dist');
    noteRecordFoldersAlone(cache, site, 'code', 42n);
    renameSync(site, join(parent, '.dist.spare'));
    expect(recordFoldersNote(cache, join(parent, '.dist.spare'), 'code')?.before).toBe(42n);
    // A new folder where the old one was is another folder.
    mkdirSync(site);
    expect(recordFoldersNote(cache, site, 'code')?.before).toBeUndefined();
  });

  it('gives the records the records\' folder held alone when noted, and none that is not a count', () => {
    const cache = tempDir('echo-stamp-cache-');
    const parent = tempDir('echo-stamp-site-');
    const site = folder(parent, 'dist');
    noteRecordFoldersAlone(cache, site, 'code', 42n, { records: 99_006, besides: ['index.html'] });
    expect(recordFoldersNote(cache, site, 'code')).toEqual({ before: 42n, records: 99_006, besides: ['index.html'] });
    noteRecordFoldersAlone(cache, site, 'code', 43n); // something was placed deeper there: no count
    expect(recordFoldersNote(cache, site, 'code')).toEqual({ before: 43n });
    const file = join(cache, 'record-folders.json');
    for (const counted of ['"records":-1,"besides":[]', '"records":1.5,"besides":[]', '"records":"7","besides":[]', '"records":7', '"records":7,"besides":["a/b"]', '"records":7,"besides":[""]', '"records":7,"besides":"index.html"']) {
      writeFileSync(file, readFileSync(file, 'utf8').replace('"code":"code"', `"code":"code",${counted}`));
      expect(recordFoldersNote(cache, site, 'code'), counted).toEqual({ before: 43n });
      noteRecordFoldersAlone(cache, site, 'code', 43n);
    }
    writeFileSync(file, readFileSync(file, 'utf8').replace('"code":"code"', '"code":"code","records":7,"besides":[]'));
    expect(recordFoldersNote(cache, site, 'code')).toEqual({ before: 43n, records: 7, besides: [] });
    expect(recordFoldersNote(cache, site, 'other code')).toBeUndefined();
  });

  it('keeps the newest eight folders', () => {
    const cache = tempDir('echo-stamp-cache-');
    const parent = tempDir('echo-stamp-site-');
    const sites = Array.from({ length: 9 }, (_, i) => folder(parent, `site-${i}`));
    sites.forEach((site, i) => noteRecordFoldersAlone(cache, site, 'code', BigInt(i + 1)));
    expect(recordFoldersNote(cache, sites[0]!, 'code')?.before).toBeUndefined();
    sites.slice(1).forEach((site, i) => expect(recordFoldersNote(cache, site, 'code')?.before).toBe(BigInt(i + 2)));
  });

  it('a damaged or foreign note gives no moment', () => {
    const cache = tempDir('echo-stamp-cache-');
    const site = folder(tempDir('echo-stamp-site-'), 'dist');
    noteRecordFoldersAlone(cache, site, 'code', 42n);
    const file = join(cache, 'record-folders.json');
    const good = readFileSync(file, 'utf8');
    for (const damaged of [good.slice(0, -3), good.replace('record folders 1', 'record folders 0'), good.replace('"42"', '"4x2"'), good.replace('"42"', '42'), '[]', 'null']) {
      writeFileSync(file, damaged);
      expect(recordFoldersNote(cache, site, 'code')?.before, damaged).toBeUndefined();
    }
    // A damaged note is replaced by the next.
    noteRecordFoldersAlone(cache, site, 'code', 43n);
    expect(recordFoldersNote(cache, site, 'code')?.before).toBe(43n);
  });

  it('a cache folder that cannot be written leaves no note, and no error', () => {
    const cache = join(tempDir('echo-stamp-cache-'), 'a file');
    writeFileSync(cache, '');
    const site = folder(tempDir('echo-stamp-site-'), 'dist');
    expect(() => noteRecordFoldersAlone(cache, site, 'code', 42n)).not.toThrow();
    expect(recordFoldersNote(cache, site, 'code')?.before).toBeUndefined();
  });
});
