/**
 * The log's state between builds (<archive>/.tlog/) and what the build does with it: leaf indexes and versions for
 * every record, pending records published without one (named), a dropped record or a rewritten log refused (named),
 * no key → no checkpoint (said plainly), an exposed key refused. And the maintainers' commands log:append and
 * log:check, including earlier bytes kept from git when a record gets a new version.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { leafEntry, parseEntriesFile, parseLeafEntry } from '../../src/core/log/archive-log.ts';
import { signerKeyText } from '../../src/core/log/note.ts';
import { ArchiveBuildError, readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { readSiteLog } from '../../src/site/build/6-transparency-log.ts';
import { siteConfig } from '../../src/core/config.ts';
import { indexShardBytes } from '../../src/core/publish/public-index.ts';
import { archivePages } from '../../src/site/render/archive-pages.ts';
import { frameOf } from '../../src/site/render/page-frame.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const NODE = resolve(REPO_ROOT, 'node_modules/.bin/node');
let dir = '';
let root = '';
const warnings: string[] = [];
const logger = { info: () => {}, warn: (m: string) => warnings.push(m) };

function logCli(...args: string[]): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync(NODE, ['src/cli/log.ts', ...args], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, output: e.stdout + e.stderr };
  }
}

const RECORD = '2026/echo-2026-02-03-000003.json';
const entries = () => join(root, '.tlog/entries.jsonl');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'echo-archive-log-'));
  root = join(dir, 'records');
  cpSync(resolve(REPO_ROOT, 'records'), root, { recursive: true });
  warnings.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('leaf entries', () => {
  it('are canonical JSON {id, index, sha256}; anything else is refused', () => {
    const text = leafEntry({ id: 'echo-x', index: 3, sha256: 'a'.repeat(64) });
    expect(text).toBe(`{"id":"echo-x","index":3,"sha256":"${'a'.repeat(64)}"}`);
    expect(parseLeafEntry(text)).toEqual({ id: 'echo-x', index: 3, sha256: 'a'.repeat(64) });
    expect(parseLeafEntry(text.replace('{"id"', '{ "id"'))).toBeUndefined();
    expect(parseLeafEntry(`{"index":3,"id":"echo-x","sha256":"${'a'.repeat(64)}"}`)).toBeUndefined();
    expect(parseLeafEntry(text.replace('"index":3', '"index":-1'))).toBeUndefined();
    expect(parseLeafEntry(text.replace('aaaa', 'AAAA'))).toBeUndefined();
  });
});

describe('the build reads the committed log', () => {
  it('gives every record its leaf index and versions; the same state gives the same tree', async () => {
    const records = await readSiteArchive(root, logger);
    expect(records.find((r) => r.path === RECORD)?.log).toEqual({ leafIndex: 2, versions: [{ leafIndex: 2, sha256: records.find((r) => r.path === RECORD)!.sha256, current: true, url: null }] });
    const again = readSiteLog(root, await readSiteArchive(root, logger), logger);
    expect(Buffer.from(again!.state.tree.root()).toString('base64')).toBe(JSON.parse(readFileSync(join(root, '.tlog/tree-head.json'), 'utf8')).root_hash);
  });

  it('publishes a new record or a changed one without a leaf index, naming it', async () => {
    writeFileSync(join(root, '2026/echo-2026-11-23-000016.json'), readFileSync(join(root, RECORD)));
    writeFileSync(join(root, RECORD), readFileSync(join(root, RECORD), 'utf8') + '\n');
    const records = await readSiteArchive(root, logger);
    expect(records.find((r) => r.id === 'echo-2026-11-23-000016')?.log?.leafIndex).toBeNull();
    expect(records.find((r) => r.path === RECORD)?.log).toMatchObject({ leafIndex: null, versions: [{ leafIndex: 2, current: false, url: null }] });
    expect(warnings.join('\n')).toContain('2 records are not in the transparency log at their current bytes');
    expect(warnings.join('\n')).toContain('2026/echo-2026-11-23-000016.json (new record)');
    expect(warnings.join('\n')).toContain(`${RECORD} (new version)`);
  });

  it('refuses a dropped record, naming it', async () => {
    unlinkSync(join(root, RECORD));
    const failure = readSiteArchive(root, logger);
    await expect(failure).rejects.toBeInstanceOf(ArchiveBuildError);
    await expect(failure).rejects.toThrow(/the record echo-2026-02-03-000003 is in the transparency log but no longer in the archive/);
  });

  it('refuses a rewritten or shortened log', async () => {
    const text = readFileSync(entries(), 'utf8');
    writeFileSync(entries(), text.replace(/"sha256":"[0-9a-f]/, '"sha256":"f'));
    await expect(readSiteArchive(root, logger)).rejects.toThrow(/no longer hashes to the recorded tree head .*: a published leaf was rewritten/);
    writeFileSync(entries(), text.split('\n').slice(0, -2).join('\n') + '\n');
    await expect(readSiteArchive(root, logger)).rejects.toThrow(/leaves 14…14 were dropped/);
    writeFileSync(entries(), text.split('\n').filter((_, i) => i !== 3).join('\n'));
    await expect(readSiteArchive(root, logger)).rejects.toThrow(/entries\.jsonl:4 says it is leaf 4, but it is leaf 3/);
  });

  it('without a .tlog folder: no log, said plainly', async () => {
    rmSync(join(root, '.tlog'), { recursive: true });
    const records = await readSiteArchive(root, logger);
    expect(records.every((r) => r.log === undefined)).toBe(true);
    expect(warnings.join('\n')).toContain('The archive has no transparency log');
  });

  it('without a key: tiles but no checkpoint, said plainly; an exposed key file is refused', async () => {
    const records = await readSiteArchive(root, logger);
    expect(readSiteLog(root, records, logger, {})?.signers).toBeUndefined();
    expect(warnings.join('\n')).toContain('No log signing key (LOG_SIGNING_KEY_FILE or LOG_SIGNING_KEY): the log\'s tiles are published, but no checkpoint');
    const keyFile = join(dir, 'log.key');
    writeFileSync(keyFile, signerKeyText('example.org/log', generateEd25519KeyPair().privateKey).signer + '\n', { mode: 0o600 });
    expect(readSiteLog(root, records, logger, { LOG_SIGNING_KEY_FILE: keyFile })?.signers?.[0]?.name).toBe('example.org/log');
    chmodSync(keyFile, 0o644);
    expect(() => readSiteLog(root, records, logger, { LOG_SIGNING_KEY_FILE: keyFile })).toThrow(`the log key file ${keyFile} allows access by group or others (mode 644): run "chmod 600 ${keyFile}" first`);
    expect(() => readSiteLog(root, records, logger, { LOG_SIGNING_KEY_FILE: join(dir, 'absent.key') })).toThrow(`LOG_SIGNING_KEY_FILE names ${join(dir, 'absent.key')}, which cannot be read`);
    expect(() => readSiteLog(root, records, logger, { LOG_SIGNING_KEY: 'PRIVATE+KEY+nope' })).toThrow(/LOG_SIGNING_KEY, key 1: a signer key is/);
  });
});

describe('npm run log:append and log:check', () => {
  it('check passes on an intact log and names what is not logged; append logs it, in archive-path order', () => {
    expect(logCli('check', '--root', root).code).toBe(0);
    writeFileSync(join(root, '2026/echo-2026-11-23-000016.json'), readFileSync(join(root, RECORD)));
    const check = logCli('check', '--root', root);
    expect(check.code).toBe(1);
    expect(check.output).toContain('2026/echo-2026-11-23-000016.json (new record');
    const dry = logCli('append', '--root', root, '--dry-run');
    expect(dry.output).toContain('would append leaf 15');
    expect(parseEntriesFile(readFileSync(entries(), 'utf8'))).toHaveLength(15);
    expect(logCli('append', '--root', root).code).toBe(0);
    expect(parseEntriesFile(readFileSync(entries(), 'utf8')).at(-1)).toMatchObject({ id: 'echo-2026-11-23-000016', index: 15 });
    expect(logCli('check', '--root', root).code).toBe(0);
    expect(logCli('append', '--root', root).output).toContain('Nothing to append');
  });

  it('a new version keeps the earlier bytes (from git HEAD) under .tlog/versions/, and the build links them', async () => {
    const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'archive');
    const before = readFileSync(join(root, RECORD));
    writeFileSync(join(root, RECORD), before.toString('utf8') + '\n');
    const append = logCli('append', '--root', root);
    expect(append.code, append.output).toBe(0);
    expect(append.output).toContain(`append leaf 15: ${RECORD} (new version`);
    const kept = join(root, '.tlog/versions', `${sha256Hex(before)}.json`);
    expect(existsSync(kept) && readFileSync(kept).equals(before)).toBe(true);
    const record = (await readSiteArchive(root, logger)).find((r) => r.path === RECORD)!;
    expect(record.log).toEqual({
      leafIndex: 15,
      versions: [
        { leafIndex: 2, sha256: sha256Hex(before), current: false, url: `/log/versions/${sha256Hex(before)}.json` },
        { leafIndex: 15, sha256: record.sha256, current: true, url: null },
      ],
    });
  });

  it('keygen writes a 0600 key that it never overwrites', () => {
    const out = join(dir, 'k');
    const r = logCli('keygen', '--name', 'example.org/log', '--out', out);
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/example\.org\/log\+[0-9a-f]{8}\+A/);
    expect(readFileSync(out, 'utf8')).toMatch(/^PRIVATE\+KEY\+example\.org\/log\+/);
    expect(execFileSync('stat', ['-c', '%a', out], { encoding: 'utf8' }).trim()).toBe('600');
    expect(logCli('keygen', '--name', 'example.org/log', '--out', out).code).not.toBe(0);
  });
});

describe('/api/log.json', () => {
  it('matches its published schema, with keys and without', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const schema = JSON.parse(readFileSync(resolve(REPO_ROOT, 'schemas/transparency-log-schema.v1.json'), 'utf8'));
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    const { logDocument } = await import('../../src/core/log/publish.ts');
    const { parseVerifierKey } = await import('../../src/core/log/note.ts');
    const key = parseVerifierKey(signerKeyText('example.org/log', generateEd25519KeyPair().privateKey).verifier);
    const signed = logDocument([key]);
    expect(validate(signed), JSON.stringify(validate.errors)).toBe(true);
    expect(signed).toMatchObject({ origin: 'example.org/log', verifier_keys: [key.text], checkpoint: '/log/checkpoint' });
    const unsigned = logDocument([]);
    expect(validate(unsigned), JSON.stringify(validate.errors)).toBe(true);
    expect(unsigned).toMatchObject({ origin: null, verifier_keys: [], checkpoint: null });
    expect(validate({ ...signed, verifier_keys: ['PRIVATE+KEY+example.org/log+00000000+AAAA'] })).toBe(false);
  });

  it('names the keys the build signs with, and none for an archive without a log, even with a key configured', async () => {
    const saved = { LOG_SIGNING_KEY: process.env.LOG_SIGNING_KEY };
    const quiet = { info: () => {}, warn: () => {} };
    try {
      process.env.LOG_SIGNING_KEY = signerKeyText('example.org/log', generateEd25519KeyPair().privateKey).signer;
      // /api/log.json as the build makes it, from the archive it read (src/site/render/archive-pages.ts).
      const document = async () => {
        const records = await readSiteArchive(root, quiet);
        const page = archivePages({ records, frame: frameOf({ base: '/', site: undefined, stylesheet: '' }), config: siteConfig(), shardBytes: indexShardBytes() }).find((p) => p.path === 'api/log.json')!;
        return JSON.parse(page.make()) as { checkpoint: string | null; verifier_keys: string[] };
      };
      expect(await document()).toMatchObject({ checkpoint: '/log/checkpoint', verifier_keys: [expect.stringMatching(/^example\.org\/log\+/)] });
      rmSync(join(root, '.tlog'), { recursive: true });
      expect(await document()).toMatchObject({ checkpoint: null, verifier_keys: [] });
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
