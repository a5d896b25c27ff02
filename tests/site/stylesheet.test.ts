/** The stylesheet's URL (src/site/stylesheet.ts): under the base path, and a new URL whenever its bytes change. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sitePaths } from '../../src/site/paths.ts';
import { STYLESHEET_PATH, readStylesheetHref, stylesheetHref } from '../../src/site/stylesheet.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('stylesheetHref', () => {
  it('is the file under the base path, versioned by its content', () => {
    expect(stylesheetHref(sitePaths('/'), bytes('a{}'))).toMatch(/^\/styles\/site\.css\?v=[0-9a-f]{12}$/);
    expect(stylesheetHref(sitePaths('/archive/'), bytes('a{}'))).toMatch(/^\/archive\/styles\/site\.css\?v=/);
  });

  it('changes when the stylesheet changes, and only then', () => {
    const paths = sitePaths('/');
    expect(stylesheetHref(paths, bytes('a{}'))).toBe(stylesheetHref(paths, bytes('a{}')));
    expect(stylesheetHref(paths, bytes('a{}'))).not.toBe(stylesheetHref(paths, bytes('b{}')));
  });

  it('reads the file from the public folder', () => {
    const dir = tempDir('echo-stylesheet-');
    mkdirSync(join(dir, 'styles'));
    writeFileSync(join(dir, STYLESHEET_PATH), 'body{}');
    expect(readStylesheetHref(sitePaths('/'), pathToFileURL(`${dir}/`))).toBe(stylesheetHref(sitePaths('/'), bytes('body{}')));
  });

  it("the project's stylesheet exists where the site links it", () => {
    expect(() => readStylesheetHref(sitePaths('/'), new URL('../../public/', import.meta.url))).not.toThrow();
  });
});
