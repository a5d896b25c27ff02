/** Where the build's caches live and the switch that turns them off (src/core/publish/build-cache.ts). */
import { describe, expect, it } from 'vitest';
import { buildCacheRoot, noCacheFromEnv } from '../../src/core/publish/build-cache.ts';

describe('build cache settings', () => {
  it('ECHO_ARCHIVE_NO_CACHE turns the caches off unless empty, 0 or false', () => {
    expect(noCacheFromEnv({})).toBe(false);
    for (const off of ['0', 'false', 'FALSE', ' ', '']) expect(noCacheFromEnv({ ECHO_ARCHIVE_NO_CACHE: off }), off).toBe(false);
    for (const on of ['1', 'true', 'yes']) expect(noCacheFromEnv({ ECHO_ARCHIVE_NO_CACHE: on }), on).toBe(true);
  });

  it('lives under node_modules/.cache/echo-archive/ unless ECHO_ARCHIVE_CACHE_DIR says where (relative to the project)', () => {
    expect(buildCacheRoot('/p', {})).toBe('/p/node_modules/.cache/echo-archive');
    expect(buildCacheRoot('/p', { ECHO_ARCHIVE_CACHE_DIR: ' ' })).toBe('/p/node_modules/.cache/echo-archive');
    expect(buildCacheRoot('/p', { ECHO_ARCHIVE_CACHE_DIR: '.cache/x' })).toBe('/p/.cache/x');
    expect(buildCacheRoot('/p', { ECHO_ARCHIVE_CACHE_DIR: '/var/cache/echo' })).toBe('/var/cache/echo');
  });
});
