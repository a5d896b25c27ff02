/**
 * The browse filters' script (src/site/build/1-browse-script.ts): named by its bytes' hash; for `astro dev`, bundled
 * again only when one of its source files changed. A project of two small source files stands in for this one.
 */
import { mkdirSync, readdirSync, utimesSync, writeFileSync, type Dirent } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { BROWSE_SCRIPT_SOURCE, bundleBrowseScript, devBrowseScript } from '../../src/site/build/1-browse-script.ts';
import { pageEntryName } from '../../src/site/build/cache/page-cache.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** A project whose browse script imports a helper: the helper's folder, to change it. */
function project(helperText: string): { repo: string; helper: string } {
  const repo = tempDir('browse-script-');
  const entry = join(repo, BROWSE_SCRIPT_SOURCE);
  mkdirSync(join(entry, '..'), { recursive: true });
  writeFileSync(entry, "import { word } from './helper.ts';\ndocument.title = word;\n");
  const helper = join(entry, '..', 'helper.ts');
  writeFileSync(helper, helperText);
  return { repo, helper };
}

describe('the browse script', () => {
  it('is named by the hash of its bytes', () => {
    const { repo } = project("export const word: string = 'one';\n");
    const script = bundleBrowseScript(repo);
    expect(script.path).toBe(`scripts/browse-filter.${sha256Hex(script.bytes).slice(0, 12)}.js`);
    expect(Buffer.from(script.bytes).toString('utf8')).toContain('"one"');
  });

  it('for astro dev: the last bundle while no source file changed, a new one when one did', () => {
    const { repo, helper } = project("export const word: string = 'one';\n");
    const first = devBrowseScript(repo);
    expect(devBrowseScript(repo)).toBe(first); // not bundled again
    writeFileSync(helper, "export const word: string = 'two';\n");
    utimesSync(helper, new Date(), new Date(Date.now() + 5_000)); // a later modification time, whatever the clock's grain
    const second = devBrowseScript(repo);
    expect(second).not.toBe(first);
    expect(Buffer.from(second.bytes).toString('utf8')).toContain('"two"');
    expect(second.path).not.toBe(first.path);
    expect(devBrowseScript(repo)).toBe(second);
  });

  it("with the build's cache: the bundle kept for the same code, checked by its hash; made again and kept otherwise", () => {
    const { repo } = project("export const word: string = 'one';\n");
    const dir = join(repo, 'cache');
    const code = 'c'.repeat(64);
    /** The cache's entries, as names from its folder (the page cache's layout: page-cache.ts). */
    const entries = () => (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((d) => d.isFile()).map((d) => relative(dir, join(d.parentPath, d.name)));
    const entry = (forCode: string, bytes: Uint8Array) => pageEntryName(forCode, bytes, 'js');
    const made = bundleBrowseScript(repo, { dir, code });
    expect(made).toEqual(bundleBrowseScript(repo));
    expect(entries()).toEqual([entry(code, made.bytes)]);
    // What is kept for this code is used as it is (these bytes were never bundled from the project)...
    const kept = Buffer.from('document.title = "kept";\n');
    writeFileSync(join(dir, entry(code, made.bytes)), 'damaged');
    writeFileSync(join(dir, entry(code, kept)), kept);
    expect(Buffer.from(bundleBrowseScript(repo, { dir, code }).bytes).toString()).toBe(kept.toString());
    // ...but not for other code, and a damaged file never: bundled again, and the folder keeps that bundle only.
    const other = 'd'.repeat(64);
    expect(bundleBrowseScript(repo, { dir, code: other })).toEqual(made);
    expect(entries()).toEqual([entry(other, made.bytes)]);
    writeFileSync(join(dir, entry(other, made.bytes)), 'damaged');
    expect(bundleBrowseScript(repo, { dir, code: other })).toEqual(made);
  });
});
