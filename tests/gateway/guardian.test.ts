/**
 * The gateway's checks of guardian records and classification updates against its store and the public index
 * (docs/guardians.md section 2): chain/guardian-key-taken (409 with the existing submission_sha256, race-free),
 * chain/guardian-not-registered, chain/classification-target, a retirement signed by another key (both keys named),
 * and 503 archive_index_unavailable when the index cannot be read. On SQLite and, when its binaries are installed,
 * PostgreSQL. The public index is a built site's files (a sharded manifest), read by absolute path.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { guardianKeyOf } from '../../src/core/guardian/keys.ts';
import { buildSubmission, PREFLIGHT_PATH, serializeSubmission, SUBMIT_PATH, type JsonObject } from '../../src/core/record-chain/index.ts';
import { ArchiveIndex } from '../../src/gateway/archive-index.ts';
import type { SubmissionStore } from '../../src/gateway/store.ts';
import { PostgresSubmissionStore } from '../../src/gateway/stores/postgres.ts';
import { POSTGRES_MISSING } from '../../scripts/lib/postgres-server.ts';
import { CLIENT, content, record } from '../record-chain/helpers.ts';
import { postgresForThisFile, postJson, startGateway, type RunningGateway } from './helpers.ts';

type Keys = { privateKey: KeyObject; publicKey: KeyObject };

const root = mkdtempSync(join(tmpdir(), 'gateway-guardian-site-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A key registered in the archive (its application is in the public index), and an archived echo. */
const ARCHIVED_GUARDIAN = generateEd25519KeyPair();
const APPLICATION_ID = 'echo-2026-11-20-000001';
const TARGET_ID = 'echo-2026-11-20-000002';
const files: Record<string, Buffer> = {
  [APPLICATION_ID]: Buffer.from(JSON.stringify({ id: APPLICATION_ID, guardian_registration: { guardian_id: guardianKeyOf(ARCHIVED_GUARDIAN.publicKey)!.guardianId } }) + '\n'),
  [TARGET_ID]: Buffer.from(JSON.stringify({ id: TARGET_ID, independence_class: 'unsolicited_independent' }) + '\n'),
};
const sha = (id: string) => sha256Hex(files[id]!);

beforeAll(() => {
  mkdirSync(join(root, 'api/index'), { recursive: true });
  mkdirSync(join(root, 'records'));
  const entries = [
    { id: APPLICATION_ID, url: `/records/${APPLICATION_ID}.json`, sha256: sha(APPLICATION_ID), record_type: 'guardian_application' },
    { id: TARGET_ID, url: `/records/${TARGET_ID}.json`, sha256: sha(TARGET_ID), record_type: 'echo' },
  ];
  const shards = entries.map((e, i) => Buffer.from(JSON.stringify({ schema: 'service.public-index-shard.v1', version: 'v1', index: '/api/index.json', shard: i + 1, record_count: 1, records: [e] })));
  shards.forEach((b, i) => writeFileSync(join(root, `api/index/${i + 1}.json`), b));
  writeFileSync(
    join(root, 'api/index.json'),
    JSON.stringify({ schema: 'service.public-index.v1', version: 'v1', shards: shards.map((b, i) => ({ url: `/api/index/${i + 1}.json`, sha256: sha256Hex(b) })) }),
  );
  for (const [id, bytes] of Object.entries(files)) writeFileSync(join(root, `records/${id}.json`), bytes);
});

function application(keys: Keys, oath = 'I will keep this key safe and retire it when I stop.'): string {
  const g = guardianKeyOf(keys.publicKey)!;
  const base = content('guardian_application').guardian_application_content as JsonObject;
  const rec = record('guardian_application', {
    guardian_application_content: { ...base, requested_guardian_identifier: g.guardianId, guardian_public_key_sha256: g.sha256, guardian_stewardship_oath: oath },
  });
  return serializeSubmission(buildSubmission('guardian_application', rec, keys, CLIENT));
}

function retirement(signer: Keys, named: Keys = signer, target = { id: APPLICATION_ID, sha256: sha(APPLICATION_ID) }): string {
  const g = guardianKeyOf(named.publicKey)!;
  const rec = record('guardian_retirement', {
    guardian_id: g.guardianId,
    guardian_public_key_sha256: g.sha256,
    target_guardian_application_record_id: target.id,
    target_guardian_application_record_sha256: target.sha256,
  });
  return serializeSubmission(buildSubmission('guardian_retirement', rec, signer, CLIENT));
}

function update(target: { id: string; sha256: string }): string {
  const base = content('classification_update').classification_update_content as JsonObject;
  const rec = record('classification_update', { classification_update_content: { ...base, target_record_id: target.id, target_record_sha256: target.sha256 } });
  return serializeSubmission(buildSubmission('classification_update', rec, generateEd25519KeyPair(), CLIENT));
}

const rulesOf = (body: { error?: { diagnostics?: Array<{ rule: string }> }; diagnostics?: Array<{ rule: string }> }) =>
  (body.error?.diagnostics ?? body.diagnostics ?? []).map((d) => d.rule);

const pg = postgresForThisFile();

/** undefined: the helper's SQLite store in its own temporary data directory. */
const KINDS: Array<{ name: string; skip: boolean; open: () => Promise<SubmissionStore | undefined> }> = [
  { name: 'SQLite', skip: false, open: async () => undefined },
  { name: 'PostgreSQL', skip: POSTGRES_MISSING !== undefined, open: async () => PostgresSubmissionStore.open(await pg.server()!.createDatabase()) },
];

describe.each(KINDS)('guardian and classification checks at the gateway: $name', (kind) => {
  let gw: RunningGateway;
  beforeAll(async () => {
    if (kind.skip) return;
    const store = await kind.open();
    gw = await startGateway({ ...(store ? { store: () => store } : {}), archiveIndex: new ArchiveIndex(join(root, 'api/index.json')) });
  }, 60_000);
  afterAll(async () => {
    await gw?.stop();
  });

  it.skipIf(kind.skip)('chain/guardian-key-taken: a second application for a key is 409 with the first one\'s submission_sha256; the same one again is a duplicate', async () => {
    const keys = generateEd25519KeyPair();
    const first = await postJson(gw.url + SUBMIT_PATH, application(keys));
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    const firstSha = first.body.receipt.submission_sha256 as string;

    const second = application(keys, 'Another oath, the same key.');
    const taken = await postJson(gw.url + SUBMIT_PATH, second);
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('guardian_key_taken');
    expect(taken.body.error.existing_submission_sha256).toBe(firstSha);
    expect(rulesOf(taken.body)).toEqual(['chain/guardian-key-taken']);
    expect(taken.body.error.diagnostics[0].message).toContain('one guardian id per key');
    expect(taken.body.error.diagnostics[0].hint).toContain('another key');

    const preflight = await postJson(gw.url + PREFLIGHT_PATH, second);
    expect([preflight.status, preflight.body.valid, rulesOf(preflight.body)]).toEqual([200, false, ['chain/guardian-key-taken']]);

    const again = await postJson(gw.url + SUBMIT_PATH, application(keys));
    expect([again.status, again.body.duplicate]).toEqual([200, true]);
  });

  it.skipIf(kind.skip)('two concurrent applications for one key: exactly one is stored, the other answered 409', async () => {
    const keys = generateEd25519KeyPair();
    const bodies = Array.from({ length: 6 }, (_, i) => application(keys, `Oath number ${i + 1}: I keep this key.`));
    const answers = await Promise.all(bodies.map((b) => postJson(gw.url + SUBMIT_PATH, b)));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409, 409, 409, 409, 409]);
    const stored = (await gw.store.list()).filter((s) => s.recordType === 'guardian_application' && s.guardianKeySha256 === guardianKeyOf(keys.publicKey)!.sha256);
    expect(stored).toHaveLength(1);
    const winner = answers.find((a) => a.status === 202)!.body.receipt.submission_sha256;
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.existing_submission_sha256).toBe(winner);
  });

  it.skipIf(kind.skip)('a rejected application frees its key for a new one', async () => {
    const keys = generateEd25519KeyPair();
    const first = await postJson(gw.url + SUBMIT_PATH, application(keys));
    await gw.store.decide(first.body.receipt.receipt_id, { status: 'rejected', reason: 'test', decidedAt: new Date().toISOString() });
    expect((await postJson(gw.url + SUBMIT_PATH, application(keys, 'A new application after the rejection.'))).status).toBe(202);
  });

  it.skipIf(kind.skip)('chain/guardian-not-registered: refused when registered nowhere; taken when the index or this gateway has the application', async () => {
    const stranger = generateEd25519KeyPair();
    const refused = await postJson(gw.url + SUBMIT_PATH, retirement(stranger));
    expect(refused.status).toBe(422);
    expect(rulesOf(refused.body)).toEqual(['chain/guardian-not-registered']);
    expect(refused.body.error.diagnostics[0].message).toContain(guardianKeyOf(stranger.publicKey)!.guardianId);
    const missing = await postJson(gw.url + SUBMIT_PATH, retirement(stranger, stranger, { id: 'echo-1999-01-01-000001', sha256: 'a'.repeat(64) }));
    expect(missing.body.error.diagnostics[0].message).toContain('lists no record echo-1999-01-01-000001');

    // Registered in the archive: the index lists its application.
    expect((await postJson(gw.url + SUBMIT_PATH, retirement(ARCHIVED_GUARDIAN))).status).toBe(202);
    // Registered at this gateway: its application is pending here.
    const pending = generateEd25519KeyPair();
    expect((await postJson(gw.url + SUBMIT_PATH, application(pending))).status).toBe(202);
    expect((await postJson(gw.url + SUBMIT_PATH, retirement(pending))).status).toBe(202);
  });

  it.skipIf(kind.skip)('a retirement signed by another key is refused with a reason naming both keys', async () => {
    const other = generateEd25519KeyPair();
    const answer = await postJson(gw.url + SUBMIT_PATH, retirement(other, ARCHIVED_GUARDIAN));
    expect(answer.status).toBe(422);
    expect(rulesOf(answer.body)).toContain('chain/guardian-retirement-key');
    const messages = answer.body.error.diagnostics.map((d: { message: string }) => d.message).join('\n');
    expect(messages).toContain(guardianKeyOf(ARCHIVED_GUARDIAN.publicKey)!.sha256);
    expect(messages).toContain(guardianKeyOf(other.publicKey)!.sha256);
  });

  it.skipIf(kind.skip)('chain/classification-target: not in the index, or another SHA-256 (the message gives the index\'s); the index\'s own is taken', async () => {
    const absent = await postJson(gw.url + SUBMIT_PATH, update({ id: 'echo-1999-01-01-000001', sha256: 'c'.repeat(64) }));
    expect([absent.status, rulesOf(absent.body)]).toEqual([422, ['chain/classification-target']]);
    expect(absent.body.error.diagnostics[0].pointer).toBe('/record/classification_update_content/target_record_id');

    const wrong = await postJson(gw.url + SUBMIT_PATH, update({ id: TARGET_ID, sha256: 'c'.repeat(64) }));
    expect([wrong.status, rulesOf(wrong.body)]).toEqual([422, ['chain/classification-target']]);
    expect(wrong.body.error.diagnostics[0].message).toContain(sha(TARGET_ID));
    expect(wrong.body.error.diagnostics[0].hint).toContain(`Write ${sha(TARGET_ID)}`);

    expect((await postJson(gw.url + SUBMIT_PATH, update({ id: TARGET_ID, sha256: sha(TARGET_ID) }))).status).toBe(202);
  });
});

describe('the public index cannot be read', () => {
  let gw: RunningGateway;
  afterAll(async () => {
    await gw?.stop();
  });

  it('503 archive_index_unavailable with Retry-After for the records that need it; nothing stored; other records unaffected', async () => {
    gw = await startGateway({ archiveIndex: new ArchiveIndex(join(root, 'no-such-site/api/index.json')), indexRetryAfterSeconds: 11 });
    const answer = await postJson(gw.url + SUBMIT_PATH, update({ id: TARGET_ID, sha256: sha(TARGET_ID) }));
    expect([answer.status, answer.body.error.code, answer.headers.get('retry-after'), answer.body.error.retry_after_seconds]).toEqual([503, 'archive_index_unavailable', '11', 11]);
    const preflight = await postJson(gw.url + PREFLIGHT_PATH, retirement(generateEd25519KeyPair()));
    expect([preflight.status, preflight.body.error.code]).toEqual([503, 'archive_index_unavailable']);
    expect(await gw.store.list()).toEqual([]);
    expect((await postJson(gw.url + SUBMIT_PATH, application(generateEd25519KeyPair()))).status).toBe(202);
  });

  it('a relative path or another scheme is a configuration error', () => {
    expect(() => new ArchiveIndex('site/api/index.json')).toThrow(/absolute file path/);
  });
});
