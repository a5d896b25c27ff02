/**
 * `npm run build [-- --no-cache] [--out-dir DIR]`: the whole site build, in its three steps, each a child process of
 * this Node, timed:
 *   1. the record-chain builder bundle (scripts/build-builder.ts), which the site publishes;
 *   2. `astro build`: validates the archive and renders the site into dist/ (src/site/build/);
 *   3. the search index (scripts/build-search.ts).
 * Steps 2 and 3 reuse what the build cache holds for unchanged inputs (src/core/publish/build-cache.ts); --no-cache
 * (or ECHO_ARCHIVE_NO_CACHE=1) builds everything afresh and leaves the cache as it was. Stops at the first step that
 * fails, with its exit code.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NO_CACHE_ENV } from '../src/core/publish/build-cache.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

let values: { 'no-cache'?: boolean; 'out-dir'?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { 'no-cache': { type: 'boolean' }, 'out-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
} catch (err) {
  console.error(`build: ${(err as Error).message}\nRun npm run build -- --help for the options.`);
  process.exit(2);
}
if (values.help) {
  console.log(`Usage: npm run build [-- --no-cache] [--out-dir DIR]

Builds the site into dist/: the record-chain builder bundle, then astro build (validates every record and renders
the pages), then the search index (Pagefind). Unchanged inputs are reused from the build cache
(node_modules/.cache/echo-archive/, or ECHO_ARCHIVE_CACHE_DIR): validation results, record pages, search bundles.

  --no-cache      build everything afresh and leave the cache as it was (the same as ${NO_CACHE_ENV}=1)
  --out-dir DIR   build the site into DIR instead of dist/
  -h, --help      this text`);
  process.exit(0);
}

const env = values['no-cache'] ? { ...process.env, [NO_CACHE_ENV]: '1' } : process.env;
const outDir = values['out-dir'] === undefined ? undefined : resolve(values['out-dir']);
const steps: [string, string[]][] = [
  ['record-chain builder', [join(REPO, 'scripts/build-builder.ts')]],
  ['astro build', [join(REPO, 'node_modules/astro/bin/astro.mjs'), 'build', ...(outDir ? ['--outDir', outDir] : [])]],
  ['search index', [join(REPO, 'scripts/build-search.ts'), ...(outDir ? ['--site', outDir] : [])]],
];
const timings: string[] = [];
for (const [name, args] of steps) {
  const start = performance.now();
  const { status, signal, error } = spawnSync(process.execPath, args, { cwd: REPO, env, stdio: 'inherit' });
  if (error || status !== 0) {
    console.error(`build: ${name} failed (${error?.message ?? (signal ? `signal ${signal}` : `exit ${status}`)})`);
    process.exit(status || 1);
  }
  timings.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
console.log(`build: done (${timings.join(', ')})${values['no-cache'] ? ', without the cache' : ''}`);
