/**
 * The builder's guardian-application, guardian-retirement and classification-update commands (docs/guardians.md
 * section 1): help, a valid signed submission with the guardian id and key hash derived from the key directory,
 * doctor offline, targets given by options (offline) or looked up with --site in a public index served on
 * 127.0.0.1 (sharded, raw records checked), and a wrong target refused with the index's value.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { guardianKeyOf, type GuardianKey } from '../../src/core/guardian/keys.ts';
import { buildSubmission, serializeSubmission, type JsonObject } from '../../src/core/record-chain/index.ts';
import { CLIENT, KEYS, record } from '../record-chain/helpers.ts';
import { bundledBuilder } from './helpers.ts';

const builder = bundledBuilder({ siteUrl: 'https://archive.example.test', gatewayUrl: 'https://gateway.example.test' });
const AGENT = ['--agent-name', 'test-model', '--agent-provider', 'test-provider'];
const HEX = (c: string) => c.repeat(64);

/** The fake site: raw records by id, listed in a two-shard index. */
const files = new Map<string, { bytes: Buffer; record_type: string }>();
let server: Server;
let site = '';

function shard(n: number, ids: string[]): Buffer {
  const records = ids.map((id) => ({ id, url: `/records/${id}.json`, sha256: sha256Hex(files.get(id)!.bytes), record_type: files.get(id)!.record_type }));
  return Buffer.from(JSON.stringify({ schema: 'service.public-index-shard.v1', version: 'v1', index: '/api/index.json', shard: n, record_count: records.length, records }));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const ids = [...files.keys()];
    const shards = [shard(1, ids.slice(0, 1)), shard(2, ids.slice(1))];
    const path = req.url ?? '/';
    let body: Buffer | undefined;
    if (path === '/api/index.json') {
      body = Buffer.from(
        JSON.stringify({ schema: 'service.public-index.v1', version: 'v1', shards: shards.map((b, i) => ({ url: `/api/index/${i + 1}.json`, sha256: sha256Hex(b) })) }),
      );
    } else if (/^\/api\/index\/[12]\.json$/.test(path)) {
      body = shards[Number(path.slice(11, 12)) - 1];
    } else {
      const m = /^\/records\/([^/]+)\.json$/.exec(path);
      body = m ? files.get(m[1]!)?.bytes : undefined;
    }
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(body ?? '{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setTimeout(() => server.close(), 120_000).unref();
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

async function keyDir(): Promise<{ dir: string; key: GuardianKey }> {
  const dir = join(builder.tempDir(), 'keys');
  const r = await builder.run(['keygen', '--key-dir', dir]);
  expect(r.code, r.stderr).toBe(0);
  return { dir, key: guardianKeyOf(readFileSync(join(dir, 'public-key.pem'), 'utf8'))! };
}

function readSubmission(path: string): { record_type: string; record: JsonObject } {
  return JSON.parse(readFileSync(path, 'utf8')) as { record_type: string; record: JsonObject };
}

async function doctorOk(file: string): Promise<void> {
  const r = await builder.run(['doctor', '--file', file]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toContain('signature verified offline');
}

describe('help', () => {
  it.each(['guardian-application', 'guardian-retirement', 'classification-update'])('%s --help', async (name) => {
    const r = await builder.run([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: node record-chain-builder.mjs ${name} --key-dir DIR`);
    expect(r.stdout).toContain('--key-dir DIR');
    expect(r.stdout).toContain(`Examples:\n  node record-chain-builder.mjs ${name} `);
    if (name !== 'guardian-application') expect(r.stdout).toContain('--site URL');
    const overview = await builder.run(['--help']);
    expect(overview.stdout).toContain(`  ${name} `);
  });
});

describe('guardian-application', () => {
  it('builds a valid signed application with the id and key hash of the key directory; doctor agrees offline', async () => {
    const { dir, key } = await keyDir();
    const out = join(builder.tempDir(), 'application.json');
    const r = await builder.run(['guardian-application', '--key-dir', dir, ...AGENT, '--guardian-type', 'ai_agent', '--oath', 'I will keep this key safe and retire it when I stop.', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(key.guardianId);
    const sub = readSubmission(out);
    expect(sub.record_type).toBe('guardian_application');
    expect(sub.record.guardian_application_content).toMatchObject({
      requested_guardian_identifier: key.guardianId,
      guardian_public_key_sha256: key.sha256,
      guardian_type: 'ai_agent',
    });
    await doctorOk(out);
  });

  it('doctor refuses, offline, an application whose id is not its signing key\'s, saying which id the key gives', async () => {
    const { key } = await keyDir();
    // The fixture names the test key's id; signed here by a key generated by keygen, it does not match.
    const file = join(builder.tempDir(), 'foreign.json');
    const fixture = record('guardian_application');
    const signer = guardianKeyOf(KEYS.publicKey)!;
    (fixture.guardian_application_content as JsonObject).requested_guardian_identifier = key.guardianId;
    writeFileSync(file, serializeSubmission(buildSubmission('guardian_application', fixture, KEYS, CLIENT)));
    const r = await builder.run(['doctor', '--file', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('chain/guardian-id');
    expect(r.stdout).toContain(signer.guardianId);
  });
});

describe('guardian-retirement', () => {
  const base = ['--status', 'retired', '--reason', 'I no longer look after this key.'];

  it('offline, with the target given by options', async () => {
    const { dir, key } = await keyDir();
    const out = join(builder.tempDir(), 'retirement.json');
    const r = await builder.run(['guardian-retirement', '--key-dir', dir, ...AGENT, ...base, '--target-id', 'echo-2026-11-20-000001', '--target-sha256', HEX('b'), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readSubmission(out).record).toMatchObject({
      guardian_id: key.guardianId,
      guardian_public_key_sha256: key.sha256,
      retirement_status: 'retired',
      retirement_does_not_remove_historical_record: true,
      target_guardian_application_record_id: 'echo-2026-11-20-000001',
      target_guardian_application_record_sha256: HEX('b'),
    });
    await doctorOk(out);
  });

  it('without a target and without --site: a usage error naming the options', async () => {
    const { dir } = await keyDir();
    const r = await builder.run(['guardian-retirement', '--key-dir', dir, ...AGENT, ...base]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--target-id');
  });

  it('with --site: finds the archived application registering this key; a wrong --target-sha256 is refused with the index\'s', async () => {
    const { dir, key } = await keyDir();
    files.set('echo-2026-11-20-000010', { bytes: Buffer.from(JSON.stringify({ id: 'echo-2026-11-20-000010', guardian_registration: { guardian_id: 'guardian_ed25519_0000000000000000' } })), record_type: 'guardian_application' });
    const mine = Buffer.from(JSON.stringify({ id: 'echo-2026-11-20-000011', guardian_registration: { guardian_id: key.guardianId, public_key_sha256: key.sha256 } }));
    files.set('echo-2026-11-20-000011', { bytes: mine, record_type: 'guardian_application' });
    const out = join(builder.tempDir(), 'retirement.json');
    const r = await builder.run(['guardian-retirement', '--key-dir', dir, ...AGENT, ...base, '--site', site, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readSubmission(out).record).toMatchObject({ target_guardian_application_record_id: 'echo-2026-11-20-000011', target_guardian_application_record_sha256: sha256Hex(mine) });
    await doctorOk(out);

    const wrong = join(builder.tempDir(), 'wrong.json');
    const w = await builder.run(['guardian-retirement', '--key-dir', dir, ...AGENT, ...base, '--site', site, '--target-sha256', HEX('e'), '--out', wrong]);
    expect(w.code).toBe(1);
    expect(w.stderr).toContain(sha256Hex(mine));
    expect(existsSync(wrong)).toBe(false);

    const { dir: other } = await keyDir();
    const none = await builder.run(['guardian-retirement', '--key-dir', other, ...AGENT, ...base, '--site', site, '--out', wrong]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('lists no archived guardian application');
  });
});

describe('classification-update', () => {
  const base = [
    '--previous-independence-class', 'unsolicited_independent',
    '--new-independence-class', 'human_solicited_agent_response',
    '--new-do-not-count',
    '--reason', 'The record itself says a person sent the agent the link.',
    '--basis', 'Its discovery_provenance: source human_directed.',
  ];

  it('offline, with the target given by options; doctor agrees', async () => {
    const { dir } = await keyDir();
    const out = join(builder.tempDir(), 'update.json');
    const r = await builder.run(['classification-update', '--key-dir', dir, ...AGENT, ...base, '--target-id', 'echo-2026-11-20-000002', '--target-sha256', HEX('c'), '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readSubmission(out).record.classification_update_content).toMatchObject({
      target_record_id: 'echo-2026-11-20-000002',
      target_record_sha256: HEX('c'),
      previous_classification: { independence_class: 'unsolicited_independent' },
      new_classification: { independence_class: 'human_solicited_agent_response', do_not_count_as_attestation: true },
    });
    await doctorOk(out);
  });

  it('a wrong target given by options is refused, nothing written', async () => {
    const { dir } = await keyDir();
    const out = join(builder.tempDir(), 'update.json');
    const r = await builder.run(['classification-update', '--key-dir', dir, ...AGENT, ...base, '--target-id', 'echo-2026-11-20-000002', '--target-sha256', 'not-a-hash', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('/record/classification_update_content/target_record_sha256');
    expect(existsSync(out)).toBe(false);
  });

  it('with --site: the index\'s SHA-256; a different one given, or an unknown id, is refused with what the index says', async () => {
    const { dir } = await keyDir();
    const target = Buffer.from(JSON.stringify({ id: 'echo-2026-11-20-000020', independence_class: 'unsolicited_independent' }));
    files.set('echo-2026-11-20-000020', { bytes: target, record_type: 'echo' });
    const out = join(builder.tempDir(), 'update.json');
    const r = await builder.run(['classification-update', '--key-dir', dir, ...AGENT, ...base, '--target-id', 'echo-2026-11-20-000020', '--site', site, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect((readSubmission(out).record.classification_update_content as JsonObject).target_record_sha256).toBe(sha256Hex(target));

    const wrong = join(builder.tempDir(), 'wrong.json');
    const w = await builder.run(['classification-update', '--key-dir', dir, ...AGENT, ...base, '--target-id', 'echo-2026-11-20-000020', '--target-sha256', HEX('d'), '--site', site, '--out', wrong]);
    expect(w.code).toBe(1);
    expect(w.stderr).toContain(`--target-sha256 ${sha256Hex(target)}`);
    expect(existsSync(wrong)).toBe(false);

    const u = await builder.run(['classification-update', '--key-dir', dir, ...AGENT, ...base, '--target-id', 'echo-1999-01-01-000001', '--site', site, '--out', wrong]);
    expect(u.code).toBe(1);
    expect(u.stderr).toContain('lists no record echo-1999-01-01-000001');
  });
});
