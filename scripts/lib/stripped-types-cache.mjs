/**
 * `node --import ./scripts/lib/stripped-types-cache.mjs …` (package.json's build and validate): keeps Node's
 * type-stripped JavaScript of the project's own .ts modules between runs, so that a process does not strip its 220
 * modules again on every start. Node 22 strips each module's types anew in every process and thread (its compile
 * cache does not keep them): about 0.25 s of each build's main thread, and as much again on each of its threads.
 *
 * A module's stripped code is kept under the build cache folder (the one src/core/publish/build-cache.ts names;
 * tests/build/stripped-types-cache.test.ts checks that the two agree), in `stripped-types/`, named by the SHA-256 of
 * its path and of its source with the Node version that stripped it: a changed file or another Node is a miss, and
 * the entry written for it replaces the path's older one. Stripping is Node's own (module.stripTypeScriptTypes, the
 * same as Node does to a .ts file it loads), and it keeps every line and column, so stack traces point at the source.
 * A module it cannot strip, or a Node without these calls, is left to Node, which reports what it always does. A
 * build with the caches off (`--no-cache`, or ECHO_ARCHIVE_NO_CACHE, the switch src/core/publish/build-cache.ts reads;
 * the test checks the two agree) neither reads nor writes it: such a build leaves the cache as it was.
 *
 * JavaScript, not TypeScript: the hook must not itself need stripping, which would load Node's stripper (about
 * 75 ms a thread) that it is there to spare. Threads started by the build inherit the flag, and with it the hook.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const PROJECT_URL = new URL('../../', import.meta.url).href;
const NODE_MODULES_URL = new URL('../../node_modules/', import.meta.url).href;

/** The folder the stripped modules are kept in: `stripped-types/` of the build cache folder. */
export function strippedTypesDir(env = process.env) {
  const configured = env.ECHO_ARCHIVE_CACHE_DIR?.trim();
  const root = configured ? (isAbsolute(configured) ? configured : resolve(PROJECT, configured)) : join(PROJECT, 'node_modules', '.cache', 'echo-archive');
  return join(root, 'stripped-types');
}

/**
 * Whether the caches are off for this process: `--no-cache` among its arguments (the build's main thread), or
 * ECHO_ARCHIVE_NO_CACHE set to anything but 0 or false (the build sets it for its threads and child processes).
 */
export function cachesOff(env = process.env, argv = process.argv) {
  const v = env.ECHO_ARCHIVE_NO_CACHE?.trim().toLowerCase();
  return argv.slice(2).includes('--no-cache') || (!!v && v !== '0' && v !== 'false');
}

const hash = (...parts) => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part);
  return h.digest('hex');
};

/** The stripped code of the module at `url` whose source is `source`, kept in `dir`; undefined if Node cannot strip it. */
export function strippedModule(dir, url, source) {
  const name = hash(url);
  const file = join(dir, `${name}.${hash(process.version, '\0', source)}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // not kept yet: stripped below
  }
  let code;
  // stripTypeScriptTypes warns that it is experimental on its first call; what it does is what Node does to every
  // .ts file it loads, so the warning would only worry whoever reads the build's output.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    code = nodeModule.stripTypeScriptTypes(source.toString('utf8'));
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
  try {
    mkdirSync(dir, { recursive: true });
    for (const old of readdirSync(dir)) if (old.startsWith(`${name}.`) && old.endsWith('.js') && join(dir, old) !== file) rmSync(join(dir, old), { force: true });
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, file);
  } catch {
    // a cache that cannot be written costs the next run its time, nothing else
  }
  return code;
}

if (typeof nodeModule.registerHooks === 'function' && typeof nodeModule.stripTypeScriptTypes === 'function' && !cachesOff()) {
  const dir = strippedTypesDir();
  nodeModule.registerHooks({
    load(url, context, nextLoad) {
      if (url.startsWith(PROJECT_URL) && !url.startsWith(NODE_MODULES_URL) && url.endsWith('.ts')) {
        let source;
        try {
          source = readFileSync(new URL(url));
        } catch {
          return nextLoad(url, context);
        }
        const code = strippedModule(dir, url, source);
        if (code !== undefined) return { format: 'module', source: code, shortCircuit: true };
      }
      return nextLoad(url, context);
    },
  });
}
