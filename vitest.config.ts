import { defineConfig } from 'vitest/config';

/**
 * The validator core's test suite. Tests import the TypeScript sources directly; the CLI tests spawn the
 * project's Node 22 (`node_modules/.bin/node`), which runs src/cli/validate.ts with type stripping.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Rule tests share nothing but read-only fixtures; temporary archives live under os.tmpdir(), which the global
    // setup points at a folder of this run's own and removes afterwards.
    globalSetup: ['tests/helpers/global-tmp.ts'],
    // The processes tests start keep Node's compile cache in that folder; the workers themselves keep none.
    setupFiles: ['tests/helpers/child-compile-cache.ts'],
    pool: 'forks',
    reporters: ['default'],
  },
});
