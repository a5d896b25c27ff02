/**
 * A build of a large archive limits its heaps' growth (but while it reads the archive from the cache) and runs Astro
 * before the site build (src/site/build/large-archive.ts), a smaller one does neither. The flag is tried in a child process: it is the
 * whole process's, and this test's own process is left as it was.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE } from '../helpers/cli.ts';

const MODULE = fileURLToPath(new URL('../../src/site/build/large-archive.ts', import.meta.url));

/** In a fresh Node (the project's): whether limitHeapGrowthFor(files), an expression over the module m, applied the limit. */
function run(files: string): { applied: boolean } {
  const code = `const m = await import(${JSON.stringify(MODULE)}); console.log(JSON.stringify({ applied: m.limitHeapGrowthFor(${files}) }));`;
  return JSON.parse(execFileSync(NODE, ['--input-type=module', '-e', code], { encoding: 'utf8' })) as { applied: boolean };
}

describe('limitHeapGrowthFor', () => {
  it('applies the limit from LARGE_ARCHIVE files, not below', async () => {
    const { LARGE_ARCHIVE } = await import('../../src/site/build/large-archive.ts');
    expect(run(`m.LARGE_ARCHIVE - 1`)).toEqual({ applied: false });
    expect(run(`m.LARGE_ARCHIVE`)).toEqual({ applied: true });
    expect(LARGE_ARCHIVE).toBeGreaterThan(10_000); // the 10,000-record benchmark builds as V8 would by default
  });

  it('is a flag V8 knows: a child process started with it runs', async () => {
    const { HEAP_GROWING_FLAG } = await import('../../src/site/build/large-archive.ts');
    expect(execFileSync(NODE, [HEAP_GROWING_FLAG, '-e', 'console.log("ran")'], { encoding: 'utf8' }).trim()).toBe('ran');
  });

  it('lifts the limit for a build from the cache: to its end when the pages are expected from the cache too, else while reading; back when the archive is refused', () => {
    // `then`: what the build tells the lifted limit once the records are read (recordsRead) or refused.
    const code = (files: string, pagesExpected: boolean, then: string) =>
      `const m = await import(${JSON.stringify(MODULE)}); m.limitHeapGrowthFor(${files}); const lifted = m.freerHeapGrowthForCachedRecords(${pagesExpected}); ` +
      `const reading = m.heapGrowingFlagSet() ?? null; lifted.${then}(); console.log(JSON.stringify({ reading, after: m.heapGrowingFlagSet() ?? null }));`;
    const flags = (files: string, pagesExpected: boolean, then: string) =>
      JSON.parse(execFileSync(NODE, ['--input-type=module', '-e', code(files, pagesExpected, then)], { encoding: 'utf8' })) as unknown;
    const lifted = '--heap-growing-percent=100';
    const limited = '--heap-growing-percent=20';
    expect(flags('m.LARGE_ARCHIVE', true, 'recordsRead')).toEqual({ reading: lifted, after: lifted });
    expect(flags('m.LARGE_ARCHIVE', false, 'recordsRead')).toEqual({ reading: lifted, after: limited });
    expect(flags('m.LARGE_ARCHIVE', true, 'refused')).toEqual({ reading: lifted, after: limited });
    expect(flags('m.LARGE_ARCHIVE - 1', true, 'recordsRead')).toEqual({ reading: null, after: null });
    expect(flags('m.LARGE_ARCHIVE - 1', false, 'refused')).toEqual({ reading: null, after: null });
  });

  it('puts the limit back once a build from the cache has rendered RENDERING_BUILD_PAGES pages; without it, sets nothing', () => {
    const code = (files: string) =>
      `const m = await import(${JSON.stringify(MODULE)}); m.limitHeapGrowthFor(${files}); m.freerHeapGrowthForCachedRecords(true); ` +
      `m.limitHeapGrowthWhenRendering(m.RENDERING_BUILD_PAGES - 1); const few = m.heapGrowingFlagSet() ?? null; ` +
      `m.limitHeapGrowthWhenRendering(m.RENDERING_BUILD_PAGES); console.log(JSON.stringify({ few, many: m.heapGrowingFlagSet() ?? null }));`;
    const flags = (files: string) => JSON.parse(execFileSync(NODE, ['--input-type=module', '-e', code(files)], { encoding: 'utf8' })) as unknown;
    expect(flags('m.LARGE_ARCHIVE')).toEqual({ few: '--heap-growing-percent=100', many: '--heap-growing-percent=20' });
    expect(flags('m.LARGE_ARCHIVE - 1')).toEqual({ few: null, many: null });
  });

  it('lifts it to a flag V8 knows', async () => {
    const { CACHED_HEAP_GROWING_FLAG } = await import('../../src/site/build/large-archive.ts');
    expect(execFileSync(NODE, [CACHED_HEAP_GROWING_FLAG, '-e', 'console.log("ran")'], { encoding: 'utf8' }).trim()).toBe('ran');
  });

  it('runs Astro before the site build from LARGE_ARCHIVE files, beside it below', async () => {
    const { LARGE_ARCHIVE, astroBeforeSiteBuild } = await import('../../src/site/build/large-archive.ts');
    expect(astroBeforeSiteBuild(LARGE_ARCHIVE - 1)).toBe(false);
    expect(astroBeforeSiteBuild(LARGE_ARCHIVE)).toBe(true);
  });
});
