/**
 * Vitest setup file, run in each test worker before its tests: the processes the tests start (builds, CLIs, servers)
 * keep Node's compile cache in this run's folder (global-tmp.ts), where it speeds up the next start of the same code
 * and is removed with the run. Set here, not in the global setup, so that the workers themselves, already started,
 * keep none: they would write it as they exit, after the run's folder is gone.
 */
import { TEST_COMPILE_CACHE_ENV } from './global-tmp.ts';

const dir = process.env[TEST_COMPILE_CACHE_ENV];
if (dir) process.env.NODE_COMPILE_CACHE = dir;
