/**
 * Several gateway instances on one PostgreSQL database behind a round-robin proxy (issue 15): two real gateway
 * processes (src/gateway/main.ts) sharing the database and the key, a loopback proxy in front (round-robin-proxy.ts).
 * Concurrent duplicate submissions, through the proxy and straight to both instances, give one row per submission
 * and the same receipt in every answer; behind the trusted proxy, rate limits and the request log see the real
 * client, and a client's own X-Forwarded-For changes nothing. Skipped with a notice without PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmission, serializeSubmission, SUBMIT_PATH, validateSubmissionText, type JsonObject, type Receipt } from '../../src/core/record-chain/index.ts';
import { CLIENT, content, KEYS, record } from '../record-chain/helpers.ts';
import { spawnGateway, type ChildGateway } from './child-gateway.ts';
import { POSTGRES_MISSING, startPostgres, type PostgresServer } from '../../scripts/lib/postgres-server.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.ts';

if (POSTGRES_MISSING) console.warn(POSTGRES_MISSING);

let postgres: PostgresServer | undefined;
let proxy: RoundRobinProxy | undefined;
let databaseUrl = '';
const instances: ChildGateway[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-multi-'));

beforeAll(async () => {
  if (POSTGRES_MISSING) return;
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  const env = {
    GATEWAY_DATABASE_URL: databaseUrl,
    GATEWAY_TRUSTED_PROXIES: '127.0.0.1/32, ::1',
    GATEWAY_RATE_LIMIT: 'on',
    GATEWAY_CLIENT_BURST: '5',
    GATEWAY_CLIENT_PER_MINUTE: '1',
    GATEWAY_GLOBAL_BURST: '100000',
    GATEWAY_GLOBAL_PER_MINUTE: '6000000',
  };
  // The first instance creates the key; the second shares it (as instances mounting one key file do).
  instances.push(spawnGateway(dataDir, env));
  await instances[0]!.ready;
  instances.push(spawnGateway(dataDir, env));
  await instances[1]!.ready;
  proxy = await startRoundRobinProxy(instances.map((i) => i.url!));
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  for (const i of instances) await i.kill();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function texts(index: number): [string, string, string] {
  const rec = record('echo', { agent_identity: { ...(content('echo').agent_identity as JsonObject), name_or_model: `multi-instance-${index}` } });
  // Byte-different envelopes of one record (other client times): one submission_sha256.
  return [
    serializeSubmission(buildSubmission('echo', rec, KEYS, CLIENT)),
    serializeSubmission(buildSubmission('echo', rec, KEYS, { ...CLIENT, generatedAt: '2027-02-03T04:05:06Z' })),
    serializeSubmission(buildSubmission('echo', rec, KEYS, { ...CLIENT, generatedAt: '2027-03-04T05:06:07Z' })),
  ];
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: { receipt?: Receipt; duplicate?: boolean; error?: { code: string; request_id?: string } }; requestId: string | null }> {
  const res = await fetch(url + SUBMIT_PATH, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, body: (await res.json()) as never, requestId: res.headers.get('x-request-id') };
}

describe.skipIf(POSTGRES_MISSING !== undefined)('two gateway instances on one PostgreSQL behind a round-robin proxy', () => {
  it('concurrent duplicates to both instances: one row per submission, one receipt in every answer', async () => {
    const N = 12;
    const subs = Array.from({ length: N }, (_, i) => texts(i));
    const sha = subs.map(([t]) => validateSubmissionText(t).submissionSha256!);
    // Each submission 6 times at once: twice through the proxy (alternating instances), twice straight to each.
    // Every request comes from its own client address, so the per-client limit stays out of the way (the test
    // process is on 127.0.0.1, a trusted proxy: straight to an instance, it names the client itself).
    let client = 0;
    const answers = await Promise.all(
      subs.flatMap((t, i) =>
        [proxy!.url, proxy!.url, instances[0]!.url!, instances[1]!.url!, instances[0]!.url!, instances[1]!.url!].map((url, k) =>
          post(url, t[k % 3]!, { [url === proxy!.url ? 'x-test-peer' : 'x-forwarded-for']: `198.51.100.${++client % 250}` }).then((a) => ({ i, a })),
        ),
      ),
    );
    for (const { i, a } of answers) {
      expect([a.status, a.body.receipt?.submission_sha256], JSON.stringify(a.body)).toEqual([a.body.duplicate ? 200 : 202, sha[i]]);
    }
    for (let i = 0; i < N; i++) {
      const mine = answers.filter((x) => x.i === i).map((x) => x.a);
      expect(mine.filter((a) => a.status === 202), `submission ${i}: taken in as new more than once`).toHaveLength(1);
      for (const a of mine) expect(a.body.receipt, `submission ${i}: two receipts`).toEqual(mine[0]!.body.receipt);
    }
    const rows = await postgres!.query<{ submission_sha256: string; n: number }>(databaseUrl, 'SELECT submission_sha256, count(*)::int AS n FROM submissions GROUP BY submission_sha256');
    expect(rows.filter((r) => sha.includes(r.submission_sha256)).map((r) => r.n)).toEqual(sha.map(() => 1));
    expect(proxy!.forwarded.every((n) => n >= N)).toBe(true);
  });

  it('behind the trusted proxy, the per-client limit counts the real client; a spoofed X-Forwarded-For is not believed', async () => {
    const body = texts(1000)[0];
    const as = (peer: string, spoof?: string) => post(proxy!.url, body, { 'x-test-peer': peer, ...(spoof ? { 'x-forwarded-for': spoof } : {}) });
    // 203.0.113.1 spends its burst of 5 on each instance (each keeps its own buckets; the proxy alternates), each
    // time claiming to be another client: every claim is ignored.
    const spoofing = [];
    for (let k = 0; k < 12; k++) spoofing.push((await as('203.0.113.1', `192.0.2.${k}`)).status);
    expect(spoofing.slice(0, 10).every((s) => s === 200 || s === 202), spoofing.join()).toBe(true);
    expect(spoofing.slice(10)).toEqual([429, 429]);
    // Another real client behind the same proxy is not limited by it.
    expect((await as('203.0.113.2')).status).toBe(200);
  });

  it('the request log names the real client and carries the request id of the answer', async () => {
    const r = await post(proxy!.url, '{"not": "a submission"', { 'x-test-peer': '203.0.113.77' });
    expect(r.status).toBe(400);
    expect(r.body.error?.request_id).toBe(r.requestId);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = instances
      .flatMap((i) => i.output().split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.request_id === r.requestId)).toMatchObject({ msg: 'request', client: '203.0.113.77', status: 400, error_code: 'invalid_json', route: SUBMIT_PATH });
  });
});
