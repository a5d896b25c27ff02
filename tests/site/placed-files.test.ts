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

  it("passes over the records' folders and their raw files in the walk for the prune, and only those", () => {
    const placed = new PlacedFiles('records', new Set(['echo-a', 'echo-b.json']));
    const over = (folder: string, name: string, isFolder: boolean) => placed.passOver.passesOver(folder, name, isFolder);
    expect(over('records/', 'echo-a', true)).toBe(true); // a record's folder: its page thread lists it
    expect(over('records/', 'echo-a.json', false)).toBe(true); // a record's raw file, which the prune keeps
    expect(over('records/', 'echo-b.json', true)).toBe(true);
    expect(over('records/', 'echo-b.json.json', false)).toBe(true);
    for (const [folder, name, isFolder] of [
      ['records/', 'echo-a', false], // a file where a record's folder belongs
      ['records/', 'echo-a.json', true], // a folder where a raw file belongs
      ['records/', 'echo-c', true], // another record's
      ['records/', 'echo-c.json', false],
      ['records/', 'index.html', false],
      ['', 'echo-a.json', false], // outside the records' folder
      ['', 'records', true],
      ['records/sub/', 'echo-a.json', false],
      ['browse/', 'echo-a', true],
    ] as const) {
      expect(over(folder, name, isFolder), `${folder}${name}${isFolder ? '/' : ''}`).toBe(false);
    }
    // Every file passed over is one the prune keeps.
    for (const name of ['echo-a.json', 'echo-b.json.json']) expect(placed.has(`records/${name}`)).toBe(true);
  });

  it("passes over the whole records' folder when told it holds the records' files alone; counts the records and what else is placed there", () => {
    const ids = new Set(['echo-a', 'echo-b']);
    const whole = new PlacedFiles('records', ids, true);
    expect(whole.passOver.passesOver('', 'records', true)).toBe(true);
    expect(whole.passOver.passesOver('', 'records', false)).toBe(false); // a file named so is not the folder
    expect(whole.passOver.passesOver('records/', 'echo-a', true)).toBe(true); // walked after all: as without
    expect(whole.passOver.passesOver('records/', 'stray', true)).toBe(false);
    const parts = new PlacedFiles('records', ids);
    expect(parts.passOver.passesOver('', 'records', true)).toBe(false);
    expect(parts.records).toBe(2);
    parts.add('browse/index.html');
    parts.add('recordsx/index.html');
    expect(parts.othersIn('records')).toEqual([]);
    parts.add('records/index.html');
    expect(parts.othersIn('records')).toEqual(['index.html']);
    parts.add('records/deeper/index.html');
    expect(parts.othersIn('records')).toBeUndefined();
  });
});
