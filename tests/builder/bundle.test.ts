/**
 * The bundle itself: one file, no dependencies beyond Node's built-ins, deterministic bytes, the site configuration
 * baked in; and the release description the site publishes at /api/record-chain-builder.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBuilder } from '../../src/builder/bundle.ts';
import { BUILDER_BUNDLE_FILE, builderBundleBytes, builderRelease, bundleBeingMade } from '../../src/builder/release.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'record-chain-bundle-test-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const env = { SITE_URL: 'https://archive.example.test/', GATEWAY_URL: 'https://gateway.example.test' };

describe('the bundle', () => {
  it('is deterministic, executable, and imports nothing but node: built-ins', async () => {
    const a = await buildBuilder({ outfile: join(temp(), 'a.mjs'), env });
    const b = await buildBuilder({ outfile: join(temp(), 'b.mjs'), env });
    const text = readFileSync(a, 'utf8');
    expect(readFileSync(b, 'utf8')).toBe(text);
    expect(statSync(a).mode & 0o111).not.toBe(0);
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    const imports = [...text.matchAll(/^import .* from ["']([^"']+)["'];?$/gm)].map((m) => m[1]!);
    expect(imports.length).toBeGreaterThan(0);
    for (const spec of imports) expect(spec).toMatch(/^node:/);
    expect(text).not.toMatch(/\b__require\(["'](?!node:)/);
  }, 60_000);

  it('bakes in the site and gateway URLs (trailing slashes removed) and the version', async () => {
    const file = await buildBuilder({ outfile: join(temp(), 'c.mjs'), env });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('baseUrl: "https://archive.example.test", gatewayUrl: "https://gateway.example.test"');
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(text.split('\n')[1]).toContain(`record-chain-builder ${version} `);
  }, 60_000);
});

describe('/api/record-chain-builder.json', () => {
  it('names the size and SHA-256 of the served bytes', async () => {
    const root = temp();
    mkdirSync(join(root, 'dist-builder'));
    const file = await buildBuilder({ outfile: join(root, BUILDER_BUNDLE_FILE), env });
    const bytes = readFileSync(file);
    const release = await builderRelease(root, 'https://archive.example.test');
    expect(release).toEqual({
      schema: 'service.record-chain-builder.v1',
      name: 'record-chain-builder.mjs',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      size: bytes.length,
      sha256: sha256Hex(bytes),
      url: 'https://archive.example.test/downloads/record-chain-builder.mjs',
      requires: 'node >=20',
      usage: 'node record-chain-builder.mjs --help',
    });
  }, 60_000);

  it('a missing bundle is a clear error', async () => {
    await expect(builderRelease(temp())).rejects.toThrow(/run "node scripts\/build-builder.ts"/);
  });

  it("waits for the bundle the build is making, and fails with the bundling's own error", async () => {
    const root = temp();
    mkdirSync(join(root, 'dist-builder'));
    const making = new Promise<void>((resolve) =>
      setTimeout(() => {
        writeFileSync(join(root, BUILDER_BUNDLE_FILE), 'made');
        resolve();
      }, 50),
    );
    try {
      bundleBeingMade(making);
      expect(Buffer.from(await builderBundleBytes(root)).toString()).toBe('made');
      bundleBeingMade(Promise.reject(new Error('esbuild: could not resolve "x"')));
      await expect(builderRelease(root)).rejects.toThrow('could not resolve');
    } finally {
      bundleBeingMade(undefined);
    }
  });
});
