/** A production build never publishes the development addresses (src/core/config.ts, used by the builder and Astro). */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { basePathOf, buildSiteConfig, DeployConfigError, isDeployBuild } from '../../src/core/config.ts';
import { buildBuilder } from '../../src/builder/bundle.ts';
import { NODE } from '../helpers/cli.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const PUBLIC = { SITE_URL: 'https://echoes.example.org/', GATEWAY_URL: 'https://intake.example.org' };

describe('buildSiteConfig', () => {
  it.each(['1', 'true', 'TRUE'])('treats ECHO_ARCHIVE_DEPLOY=%s as a production build', (v) => {
    expect(isDeployBuild({ ECHO_ARCHIVE_DEPLOY: v })).toBe(true);
  });

  it.each(['', '0', 'false', undefined])('treats ECHO_ARCHIVE_DEPLOY=%s as a local build', (v) => {
    expect(isDeployBuild({ ECHO_ARCHIVE_DEPLOY: v })).toBe(false);
  });

  it('passes a production build with public URLs', () => {
    const notices: string[] = [];
    expect(buildSiteConfig({ ECHO_ARCHIVE_DEPLOY: '1', ...PUBLIC }, (m) => notices.push(m))).toEqual({
      baseUrl: 'https://echoes.example.org',
      gatewayUrl: 'https://intake.example.org',
    });
    expect(notices).toEqual([]);
  });

  it.each([
    [{}, /SITE_URL is not set .*GATEWAY_URL is not set/],
    [{ SITE_URL: PUBLIC.SITE_URL }, /GATEWAY_URL is not set \(the development default is http:\/\/127\.0\.0\.1:8787\)/],
    [{ ...PUBLIC, SITE_URL: 'http://localhost:4321' }, /SITE_URL points at this machine/],
    [{ ...PUBLIC, GATEWAY_URL: 'http://127.0.0.1:8787' }, /GATEWAY_URL points at this machine/],
    [{ ...PUBLIC, GATEWAY_URL: 'http://[::1]:8787' }, /GATEWAY_URL points at this machine/],
    [{ ...PUBLIC, SITE_URL: 'echoes.example.org' }, /SITE_URL is not an absolute URL/],
    [{ ...PUBLIC, SITE_URL: 'ftp://echoes.example.org' }, /SITE_URL is not an http\(s\) URL/],
  ])('fails a production build with %j, saying what to set', (env, message) => {
    let error: unknown;
    try {
      buildSiteConfig({ ECHO_ARCHIVE_DEPLOY: '1', ...env });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DeployConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/repository variables/);
  });

  it('keeps the defaults in a local build, and says so', () => {
    const notices: string[] = [];
    expect(buildSiteConfig({}, (m) => notices.push(m))).toEqual({ baseUrl: 'http://localhost:4321', gatewayUrl: 'http://127.0.0.1:8787' });
    expect(notices).toEqual([expect.stringMatching(/local build: using the development defaults SITE_URL=http:\/\/localhost:4321 and GATEWAY_URL=http:\/\/127\.0\.0\.1:8787/)]);
  });

  it('stops the builder bundle of a production build before anything is written', async () => {
    await expect(buildBuilder({ outfile: '/nonexistent-dir/never-written.mjs', env: { ECHO_ARCHIVE_DEPLOY: '1' } })).rejects.toThrow(DeployConfigError);
  });

  it('stops npm run build of a production build before anything is made, saying what to set', () => {
    const parent = tempDir('echo-deploy-build-');
    const env: Record<string, string | undefined> = { ...process.env, ECHO_ARCHIVE_DEPLOY: '1' };
    delete env.SITE_URL;
    delete env.GATEWAY_URL;
    const run = spawnSync(NODE, [resolve(REPO_ROOT, 'scripts/build.ts'), '--out-dir', join(parent, 'dist')], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^build: a production build \(ECHO_ARCHIVE_DEPLOY=1\) needs the public addresses.*SITE_URL is not set/m);
    expect(readdirSync(parent)).toEqual([]); // no site, no staging folder, no spare
  });
});

describe('basePathOf', () => {
  it.each([
    ['http://localhost:4321', '/'],
    ['https://echoes.example.org', '/'],
    ['https://owner.github.io/echo-archive', '/echo-archive/'],
    ['https://owner.github.io/echo-archive/', '/echo-archive/'],
  ])('%s is served under %s', (url, base) => expect(basePathOf(url)).toBe(base));
});
