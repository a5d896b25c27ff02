/**
 * The "done", on the real site build (few builds: each takes seconds): with a test log key, build the site
 * over a copy of records/, read a record back with an inclusion proof (saving the checkpoint), add a record and log
 * it, rebuild, and `monitor` proves consistency. Then tamper: a raw record's bytes changed on the built site (and its
 * index hash changed to match) make `readback` refuse; an archive that drops a published record and rewrites its
 * log to hide it builds, but `readback` and `monitor` refuse, monitor with the two signed checkpoints as proof.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesFileText, parseEntriesFile, treeHeadOf, treeOf } from '../../src/core/log/archive-log.ts';
import { keyTag, parseVerifierKey, signerKeyText } from '../../src/core/log/note.ts';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { bundledBuilder } from '../builder/helpers.ts';
import { serveStatic, type StaticServer } from '../e2e/static-server.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const NODE = resolve(REPO_ROOT, 'node_modules/.bin/node');
const base = mkdtempSync(join(tmpdir(), 'echo-archive-log-site-'));
const archive = join(base, 'records');
const site = join(base, 'site');
const keyFile = join(base, 'log.key');
const checkpointFile = join(base, 'checkpoint.txt');
let server: StaticServer;
let verifierKey = '';

const builder = bundledBuilder({ siteUrl: 'http://127.0.0.1:9', gatewayUrl: 'http://127.0.0.1:9' });

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    // NODE_COMPILE_CACHE: Astro turns Node's compile cache on, by default in the system's temporary folder.
    execFile(NODE, args, { cwd: REPO_ROOT, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', NODE_COMPILE_CACHE: join(base, 'compile-cache'), ECHO_ARCHIVE_CACHE_DIR: join(base, 'cache'), ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      done({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

async function buildSite(): Promise<string> {
  const r = await run([resolve(REPO_ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', site], { RECORDS_DIR: archive, LOG_SIGNING_KEY_FILE: keyFile });
  expect(r.code, r.output).toBe(0);
  return r.output;
}

const index = () => `${server.origin}/api/index.json`;

beforeAll(async () => {
  cpSync(resolve(REPO_ROOT, 'records'), archive, { recursive: true });
  const keys = signerKeyText('127.0.0.1/echo-archive-test/log', generateEd25519KeyPair().privateKey);
  writeFileSync(keyFile, keys.signer + '\n', { mode: 0o600 });
  verifierKey = keys.verifier;
  // The builder reads its bundle once; the site must exist for /api/record-chain-builder.json.
  const bundle = await run(['scripts/build-builder.ts']);
  expect(bundle.code, bundle.output).toBe(0);
  server = await serveStatic(site);
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('the transparency log on a built site', () => {
  it('build, readback with an inclusion proof, add a record, rebuild, monitor proves consistency', async () => {
    const output = await buildSite();
    expect(output).toMatch(/Transparency log: 15 leaves, checkpoint signed by 127\.0\.0\.1\/echo-archive-test\/log\+/);
    expect(readFileSync(join(site, 'log/checkpoint'), 'utf8')).toMatch(/^127\.0\.0\.1\/echo-archive-test\/log\n15\n/);

    const first = await builder.run(['readback', '--id', 'echo-2026-02-03-000003', '--index', index(), '--log-key', verifierKey, '--save-checkpoint', checkpointFile]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('in log: leaf 2 of 127.0.0.1/echo-archive-test/log, tree size 15');
    expect(first.stderr).toMatch(/proven \(\d+ proof hashes from 1 tiles\) in the tree of size 15/);
    const tag = keyTag(parseVerifierKey(verifierKey));
    expect(first.stderr).toContain(`in the tree of size 15 whose checkpoint is signed by ${tag}`);
    expect(readFileSync(checkpointFile, 'utf8')).toBe(readFileSync(join(site, 'log/checkpoint'), 'utf8'));

    // a new record, logged by the maintainers' command, and the site rebuilt
    const added = JSON.parse(readFileSync(join(archive, '2026/echo-2026-08-12-000015.json'), 'utf8'));
    writeFileSync(join(archive, '2026/echo-2026-11-23-000016.json'), JSON.stringify(added, null, 2) + '\n');
    const append = await run(['src/cli/log.ts', 'append', '--root', archive]);
    expect(append.code, append.output).toBe(0);
    expect(append.output).toContain('append leaf 15: 2026/echo-2026-11-23-000016.json (new record');
    await buildSite();

    const published = await run(['scripts/check-published.ts', site]);
    expect(published.code, published.output).toBe(0);

    const consistent = await builder.run(['monitor', '--checkpoint', checkpointFile, '--site', server.origin, '--log-key', verifierKey]);
    expect(consistent.code, consistent.stderr).toBe(0);
    expect(consistent.stdout).toContain('consistent: 127.0.0.1/echo-archive-test/log 15 → 16 leaves');
    expect(consistent.stderr).toContain(`(size 16, signed by ${tag})`);
    // the key from /api/log.json when none is pinned (trust on first use, said so)
    const tofu = await builder.run(['readback', '--id', 'echo-2026-11-23-000016', '--index', index()]);
    expect(tofu.code, tofu.stderr).toBe(0);
    expect(tofu.stdout).toContain('in log: leaf 15');
    expect(tofu.stderr).toContain('trusted on first use');
  }, 240_000);

  it('tampered raw bytes on the built site: readback refuses, even when the index hash is changed to match', async () => {
    const raw = join(site, 'records/echo-2026-02-03-000003.json');
    const indexFile = join(site, 'api/index.json');
    const original = { raw: readFileSync(raw), index: readFileSync(indexFile, 'utf8') };
    try {
      const changed = Buffer.from(original.raw.toString('utf8').replace('"', ' "'));
      unlinkSync(raw); // a hard link to the archive's file: replace it, do not write through it
      writeFileSync(raw, changed);
      const bytes = await builder.run(['readback', '--id', 'echo-2026-02-03-000003', '--index', index(), '--log-key', verifierKey]);
      expect(bytes.code).toBe(1);
      expect(bytes.stderr).toContain('not verifiably included');

      writeFileSync(indexFile, original.index.replace(sha256Hex(original.raw), sha256Hex(changed)));
      const proof = await builder.run(['readback', '--id', 'echo-2026-02-03-000003', '--index', index(), '--log-key', verifierKey]);
      expect(proof.code).toBe(1);
      expect(proof.stderr).toMatch(/not proven in the transparency log: leaf 2 is not \{"id":"echo-2026-02-03-000003","sha256":"[0-9a-f]{64}"\} in the signed tree of size 16/);
    } finally {
      unlinkSync(raw);
      writeFileSync(raw, original.raw);
      writeFileSync(indexFile, original.index);
    }
  });

  it('the publication check refuses a changed tile or a wrong leaf_index', async () => {
    const tile = join(site, 'log/tile/0/000.p/16');
    const indexFile = join(site, 'api/index.json');
    const original = { tile: readFileSync(tile), index: readFileSync(indexFile, 'utf8') };
    try {
      const changed = Buffer.from(original.tile);
      changed[0] = changed[0]! ^ 1;
      writeFileSync(tile, changed);
      const bad = await run(['scripts/check-published.ts', site]);
      expect(bad.code).toBe(1);
      expect(bad.output).toContain('log/tile/0/000.p/16 is not the tile of the published entries');
      writeFileSync(tile, original.tile);
      writeFileSync(indexFile, original.index.replace('"leaf_index":2,', '"leaf_index":3,'));
      const wrong = await run(['scripts/check-published.ts', site]);
      expect(wrong.code).toBe(1);
      expect(wrong.output).toContain('echo-2026-02-03-000003: leaf 3 of the published log is not this record at its listed sha256');
    } finally {
      writeFileSync(tile, original.tile);
      writeFileSync(indexFile, original.index);
    }
  });

  it('a record dropped and its leaf removed from the log: the build passes, readback and monitor refuse', async () => {
    // Dropping the file alone fails the build, naming the record (tests/log/site-log.test.ts); here the log is
    // rewritten too, as a maintainer hiding it would have to.
    unlinkSync(join(archive, '2026/echo-2026-02-03-000003.json'));
    const kept = parseEntriesFile(readFileSync(join(archive, '.tlog/entries.jsonl'), 'utf8'))
      .filter((l) => l.id !== 'echo-2026-02-03-000003')
      .map((l, index) => ({ ...l, index }));
    writeFileSync(join(archive, '.tlog/entries.jsonl'), entriesFileText(kept));
    writeFileSync(join(archive, '.tlog/tree-head.json'), JSON.stringify(treeHeadOf(treeOf(kept))));
    // and a record added after it, so that the new tree is larger than the saved one and a proof is asked for
    cpSync(join(archive, '2026/echo-2026-11-23-000016.json'), join(archive, '2026/echo-2026-11-23-000017.json'));
    expect((await run(['src/cli/log.ts', 'append', '--root', archive])).code).toBe(0);
    await buildSite();

    const gone = await builder.run(['readback', '--id', 'echo-2026-02-03-000003', '--index', index(), '--log-key', verifierKey]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('not (yet) included');

    const rewritten = await builder.run(['monitor', '--checkpoint', checkpointFile, '--site', server.origin, '--log-key', verifierKey]);
    expect(rewritten.code, rewritten.stderr).toBe(1);
    expect(rewritten.stdout).toContain('HISTORY REWRITTEN: the tree of 16 leaves does not extend the saved tree of 15');
    expect(rewritten.stderr).toContain('a leaf among the first 15 was changed or removed');
    expect(rewritten.stdout).toContain('--- consistency proof from the current tiles (base64, fails to verify) ---');
    expect(rewritten.stdout).toContain('--- saved checkpoint (signed) ---');
    expect(rewritten.stdout).toContain(readFileSync(checkpointFile, 'utf8').trimEnd());
    expect(rewritten.stdout).toContain(readFileSync(join(site, 'log/checkpoint'), 'utf8').trimEnd());

    // a wrong key is an error (2), not a verdict
    const other = signerKeyText('127.0.0.1/echo-archive-test/log', generateEd25519KeyPair().privateKey).verifier;
    expect((await builder.run(['monitor', '--checkpoint', checkpointFile, '--site', server.origin, '--log-key', other])).code).toBe(2);
  }, 120_000);

  it('monitor: usage and input errors exit 2 with a reason', async () => {
    const none = await builder.run(['monitor', '--site', server.origin]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--checkpoint is required');
    const missing = await builder.run(['monitor', '--checkpoint', join(base, 'nope.txt'), '--site', server.origin, '--log-key', verifierKey]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot be read');
    writeFileSync(join(base, 'garbage.txt'), 'not a checkpoint\n');
    const garbage = await builder.run(['monitor', '--checkpoint', join(base, 'garbage.txt'), '--site', server.origin]);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain('its log key changed since you saved the checkpoint, or the file is not one');
    expect((await builder.run(['monitor', '--checkpoint', checkpointFile, '--site', server.origin, '--log-key', 'not-a-key'])).code).toBe(2);
  });
});
