/**
 * The stripped-types cache (scripts/lib/stripped-types-cache.mjs, the hook package.json's build and validate load):
 * its folder is the build cache's, whatever ECHO_ARCHIVE_CACHE_DIR says; a module is stripped as Node strips it,
 * kept, and given back while its source and Node are the same; a changed source replaces its path's entry; a module
 * Node cannot strip is left to Node; a process run with the hook loads the project's modules through it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cachesOff, strippedModule, strippedTypesDir } from '../../scripts/lib/stripped-types-cache.mjs';
import { buildCacheRoot, noCacheFromEnv } from '../../src/core/publish/build-cache.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const base = tempDir('stripped-types-');
const NODE = resolve(REPO_ROOT, 'node_modules/.bin/node');
const strip = strippedModule as (dir: string, url: string, source: Buffer) => string | undefined;
const dirOf = strippedTypesDir as (env: Record<string, string | undefined>) => string;
const off = cachesOff as (env: Record<string, string | undefined>, argv: string[]) => boolean;

/** What a process run with the hook and the cache folder `cache` prints: a module of the project's, loaded and run. */
function runWithHook(cache: string, env: Record<string, string> = {}): string {
  const script = `import('${pathToFileURL(join(REPO_ROOT, 'src/core/canonical/jcs.ts')).href}').then((m) => console.log(m.canonicalJson({ b: 1, a: [true, null] })))`;
  const { ECHO_ARCHIVE_NO_CACHE: _, ...inherited } = process.env;
  return execFileSync(NODE, ['--import', './scripts/lib/stripped-types-cache.mjs', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    env: { ...inherited, ECHO_ARCHIVE_CACHE_DIR: cache, ...env },
    encoding: 'utf8',
  });
}

describe('stripped-types cache', () => {
  it('lives in the build cache folder, as src/core/publish/build-cache.ts names it', () => {
    for (const env of [{}, { ECHO_ARCHIVE_CACHE_DIR: '/somewhere/cache' }, { ECHO_ARCHIVE_CACHE_DIR: 'relative/cache' }, { ECHO_ARCHIVE_CACHE_DIR: '  ' }]) {
      expect(dirOf(env)).toBe(join(buildCacheRoot(REPO_ROOT, env), 'stripped-types'));
    }
  });

  it("keeps Node's stripping of a module, gives it back while the source is the same, and replaces it when the source changes", () => {
    const dir = join(base, 'one');
    const url = pathToFileURL(join(REPO_ROOT, 'src/example.ts')).href;
    const source = Buffer.from('export const n: number = 1;\ninterface A { a: string }\nexport function f(a: A): string { return a.a; }\n');
    const code = strip(dir, url, source)!;
    expect(code).toBe(stripTypeScriptTypes(source.toString()));
    const [entry, ...more] = readdirSync(dir);
    expect(more).toEqual([]);
    // Given back from the entry: shown by an entry changed on purpose.
    writeFileSync(join(dir, entry!), 'export const n = "kept";\n');
    expect(strip(dir, url, source)).toBe('export const n = "kept";\n');
    // Another source for the same path: stripped again, and its entry replaces the path's old one.
    const changed = Buffer.from('export const n: number = 2;\n');
    expect(strip(dir, url, changed)).toBe(stripTypeScriptTypes(changed.toString()));
    expect(readdirSync(dir)).toHaveLength(1);
    expect(readdirSync(dir)[0]).not.toBe(entry);
    // Another path of the same source: an entry of its own.
    strip(dir, pathToFileURL(join(REPO_ROOT, 'src/other.ts')).href, changed);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it('is off when the caches are, by the same switch as src/core/publish/build-cache.ts reads, or --no-cache', () => {
    for (const value of [undefined, '', '  ', '0', ' 0 ', 'false', 'FALSE', '1', 'true', 'yes', ' 1 ']) {
      const env = value === undefined ? {} : { ECHO_ARCHIVE_NO_CACHE: value };
      expect(off(env, ['node', 'scripts/build.ts']), JSON.stringify(value)).toBe(noCacheFromEnv(env));
    }
    expect(off({}, ['node', 'scripts/build.ts', '--no-cache'])).toBe(true);
    expect(off({}, ['node', 'scripts/build.ts', '--out-dir', 'site'])).toBe(false);
    // A process with the caches off loads the project's modules as Node does, and keeps nothing.
    const cache = join(base, 'off');
    expect(runWithHook(cache, { ECHO_ARCHIVE_NO_CACHE: '1' })).toBe('{"a":[true,null],"b":1}\n');
    expect(existsSync(cache)).toBe(false);
  });

  it('leaves to Node a module it cannot strip (an enum needs more than stripping)', () => {
    const dir = join(base, 'two');
    expect(strip(dir, pathToFileURL(join(REPO_ROOT, 'src/enum.ts')).href, Buffer.from('enum E { A }\n'))).toBeUndefined();
  });

  it('is what a process run with the hook loads the project\'s modules through, with the same results', () => {
    const cache = join(base, 'cache');
    const run = () => runWithHook(cache);
    expect(run()).toBe('{"a":[true,null],"b":1}\n');
    const kept = readdirSync(join(cache, 'stripped-types'));
    expect(kept.length).toBeGreaterThan(0);
    expect(run()).toBe('{"a":[true,null],"b":1}\n');
    expect(readdirSync(join(cache, 'stripped-types')).sort()).toEqual(kept.sort());
    expect(readFileSync(join(cache, 'stripped-types', kept[0]!), 'utf8')).not.toBe('');
  });
});
