/**
 * The site paths a build placed (src/site/build/site-build.ts: PlacedFiles), as its prune asks for them: each record's
 * page and raw file by the record's id, the rest by path.
 */
import { describe, expect, it } from 'vitest';
import { PlacedFiles } from '../../src/site/build/site-build.ts';

describe('the files a build placed', () => {
  it("holds each record's page and raw file, and what was added, and nothing else", () => {
    const placed = new PlacedFiles('records', new Set(['echo-a', 'echo-b.json']));
    placed.add('browse/index.html');
    placed.add('records/index.html');
    for (const path of ['records/echo-a/index.html', 'records/echo-a.json', 'records/echo-b.json/index.html', 'records/echo-b.json.json', 'browse/index.html', 'records/index.html']) {
      expect(placed.has(path), path).toBe(true);
    }
    for (const path of [
      'records/echo-c/index.html', // another record's
      'records/echo-c.json',
      'records/echo-a/other.html', // beside a record's page
      'records/echo-a/index.html/x',
      'records/sub/echo-a.json', // deeper
      'records/sub/echo-a/index.html',
      'records/echo-a',
      'echo-a.json', // outside the records' folder
      'other/echo-a/index.html',
      'browse/other.html',
    ]) {
      expect(placed.has(path), path).toBe(false);
    }
    expect(placed.size).toBe(6);
  });
});
