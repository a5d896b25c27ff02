/**
 * `astro dev` serves the pages the build makes outside Astro from the same renderers (src/site/build/integration.ts):
 * the archive's pages (home, a facet's counts, guardians, the public index, llms.txt), a listing page and a record
 * page, beside Astro's own (the search page). A real dev server on 127.0.0.1, over the project's records, in a copy
 * of the project (Astro allows one dev server per project: a contributor's own must not fail the tests).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/free-port.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const PROJECT_PARTS = ['src', 'public', 'schemas', 'documents', 'examples', 'astro.config.mjs', 'package.json', 'tsconfig.json'];

let server: ChildProcess | undefined;
let base = '';

beforeAll(async () => {
  const project = tempDir('echo-dev-server-');
  for (const part of PROJECT_PARTS) cpSync(join(REPO_ROOT, part), join(project, part), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // As a user starts it: without vitest's variables (with VITEST set, Vite's server does not listen).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST'));
  server = spawn(resolve(REPO_ROOT, 'node_modules/.bin/node'), [resolve(REPO_ROOT, 'node_modules/astro/bin/astro.mjs'), 'dev', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: project,
    env: { ...env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', RECORDS_DIR: join(REPO_ROOT, 'records') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`astro dev ended (exit ${server.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`astro dev did not answer within 60 s:\n${output}`);
    try {
      if ((await fetch(`${base}/search/`)).ok) break;
    } catch (err) {
      output += `\n(fetch: ${String((err as Error).cause ?? err)})`;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}, 90_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const ended = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await ended;
  }
});

const get = async (path: string) => {
  const response = await fetch(`${base}${path}`);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
};

describe('astro dev', () => {
  it("serves the archive's pages from the build's renderers", async () => {
    const home = await get('/');
    expect(home.status).toBe(200);
    expect(home.type).toMatch(/^text\/html/);
    expect(home.body).toContain('The archive in numbers');
    const facet = await get('/browse/record_kind/');
    expect(facet.body).toContain('<h1>Record kind</h1>');
    expect((await get('/guardians/')).body).toContain('<h1>Guardians</h1>');
    const index = await get('/api/index.json');
    expect(index.type).toMatch(/^application\/json/);
    expect(JSON.parse(index.body)).toHaveProperty('records');
    expect((await get('/llms.txt')).body).toContain('/api/index.json');
    expect((await get('/feeds/records.atom')).type).toMatch(/^application\/atom\+xml/);
  });

  it('serves a listing page and a record page beside them, and leaves its own pages and unknown paths to Astro', async () => {
    expect((await get('/browse/')).body).toContain('data-browse');
    expect((await get('/records/echo-2026-01-14-000001/')).status).toBe(200);
    expect((await get('/search/')).body).toContain('data-search-form');
    expect((await get('/guardians/guardian_ed25519_0000000000000000/')).status).toBe(404);
  });
});
