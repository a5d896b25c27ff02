/**
 * Crash safety of the intake gateway (issue "Prove it holds"): a client streams distinct valid submissions (several
 * in flight) and re-sends earlier ones, while the real gateway process (src/gateway/main.ts, a child process) is
 * killed with SIGKILL at random moments (mid-request, and sometimes while it starts) and restarted on the same data
 * directory, on each store: the SQLite file, and a real PostgreSQL server (scripts/lib/postgres-server.ts; skipped with a notice when
 * it is not installed). At the end, over HTTP and in the database itself (the SQLite file opened read-only):
 *   - every receipt the client received is retrievable, identical, signed by the gateway key, for its submission;
 *   - a submission_sha256 is stored once, whatever the retries; every row is complete and re-validates;
 *   - every submission the client sent is stored once, after the client retried the ones whose answer was lost;
 *   - PRAGMA integrity_check is ok (SQLite).
 * The moments are drawn from a seeded PRNG (CRASH_SEED to replay one, CRASH_CYCLES for more kill cycles); the seed is
 * in every failure message. Timing makes a replay similar, not identical.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { prng } from '../../scripts/lib/synthetic-archive.ts';
import {
  buildSubmission,
  GATEWAY_KEYS_PATH,
  readGatewayKeys,
  RECEIPTS_PATH,
  serializeSubmission,
  SUBMIT_PATH,
  validateSubmissionText,
  verifyReceipt,
  type GatewayKeysDocument,
  type JsonObject,
  type Receipt,
  type RecordType,
} from '../../src/core/record-chain/index.ts';
import { KEYS_DOCUMENT_FILE } from '../../src/gateway/keys.ts';
import { DATABASE_FILE } from '../../src/gateway/store.ts';
import { CLIENT, content, KEYS, record } from '../record-chain/helpers.ts';
import { spawnGateway, type ChildGateway } from './child-gateway.ts';
import { POSTGRES_MISSING } from '../../scripts/lib/postgres-server.ts';
import { postgresForThisFile } from './helpers.ts';

const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CYCLES = Number(process.env.CRASH_CYCLES ?? 6);
const CONCURRENCY = 6;
const TAG = `crash-safety seed=${SEED} (replay: CRASH_SEED=${SEED} CRASH_CYCLES=${CYCLES})`;

const TYPES: RecordType[] = ['echo', 'verification', 'propagation', 'correction', 'context_insufficient_notice'];

interface Answered {
  status: number;
  duplicate: boolean;
  receipt: Receipt;
}

/** One distinct submission, as the client knows it. */
interface Item {
  index: number;
  recordType: RecordType;
  sha: string;
  /** Two byte-different envelopes of the same record (another client time): the same submission_sha256. */
  texts: [string, string];
  answers: Answered[];
  /** Requests whose answer never arrived (the gateway was killed). */
  lost: number;
}

function makeItem(index: number): Item {
  const recordType = TYPES[index % TYPES.length]!;
  const base = content(recordType);
  const rec = record(recordType, { agent_identity: { ...(base.agent_identity as JsonObject), name_or_model: `crash-model-${SEED}-${index}` } });
  const texts: [string, string] = [
    serializeSubmission(buildSubmission(recordType, rec, KEYS, CLIENT)),
    serializeSubmission(buildSubmission(recordType, rec, KEYS, { ...CLIENT, generatedAt: '2027-02-03T04:05:06Z' })),
  ];
  const checks = texts.map((t) => validateSubmissionText(t));
  if (!checks.every((c) => c.valid) || checks[0]!.submissionSha256 !== checks[1]!.submissionSha256) {
    throw new Error(`${TAG}: test fixture ${index} is not a valid submission: ${JSON.stringify(checks[0]!.diagnostics)}`);
  }
  return { index, recordType, sha: checks[0]!.submissionSha256!, texts, answers: [], lost: 0 };
}

const dirs: string[] = [];
const children: ChildGateway[] = [];
const pg = postgresForThisFile();
afterAll(async () => {
  for (const c of children) await c.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type StoredRow = Record<string, string | null>;

/** A store as the crash test sees it: the gateway's environment for it, and its rows read after the last kill. */
interface CrashStore {
  name: string;
  skip: boolean;
  prepare(dataDir: string): Promise<{ env: Record<string, string>; inspect: () => Promise<{ integrity: unknown; rows: StoredRow[] }> }>;
}

const STORES: CrashStore[] = [
  {
    name: 'SQLite',
    skip: false,
    prepare: async (dataDir) => ({
      env: {},
      inspect: async () => {
        const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
        try {
          return { integrity: db.prepare('PRAGMA integrity_check').all(), rows: db.prepare('SELECT * FROM submissions').all() as unknown as StoredRow[] };
        } finally {
          db.close();
        }
      },
    }),
  },
  {
    name: 'PostgreSQL',
    skip: POSTGRES_MISSING !== undefined,
    prepare: async () => {
      const url = await pg.server()!.createDatabase();
      return {
        env: { GATEWAY_DATABASE_URL: url },
        inspect: async () => ({ integrity: [{ integrity_check: 'ok' }], rows: await pg.server()!.query<StoredRow>(url, 'SELECT * FROM submissions') }),
      };
    },
  },
];

describe.each(STORES)('gateway crash safety (SIGKILL at random moments): $name', (kind) => {
  it.skipIf(kind.skip)('keeps every receipt it gave, stores each submission once and whole', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-crash-'));
    dirs.push(dataDir);
    const database = await kind.prepare(dataDir);
    const rng = prng(SEED);
    const items: Item[] = [];
    const sent: Item[] = [];
    const retry = new Set<Item>();
    const unexpected: string[] = [];
    const stats = { answers: 0, posts: 0, gets: 0, lostRequests: 0, startupKills: 0, killedBeforeListening: 0, lostButStored: 0 };
    const killsInFlight: number[] = [];
    const startTimes: number[] = [];
    let inFlight = 0;
    let current: ChildGateway | undefined;
    let stopping = false;

    function start(): ChildGateway {
      const child = spawnGateway(dataDir, database.env);
      children.push(child);
      return child;
    }

    function note(item: Item, status: number, headers: Headers, text: string): void {
      let body: { receipt?: Receipt; duplicate?: boolean } | undefined;
      try {
        body = JSON.parse(text);
      } catch {
        // reported below
      }
      const ok = (status === 202 && body?.duplicate === false) || (status === 200 && body?.duplicate === true);
      if (!ok || !body?.receipt) {
        unexpected.push(`submit #${item.index}: ${status} ${text.slice(0, 300)}`);
        return;
      }
      if (body.receipt.submission_sha256 !== item.sha) unexpected.push(`submit #${item.index}: receipt for ${body.receipt.submission_sha256}, sent ${item.sha}`);
      if (headers.get('location') !== `${RECEIPTS_PATH}/${body.receipt.receipt_id}`) unexpected.push(`submit #${item.index}: Location ${headers.get('location')}`);
      item.answers.push({ status, duplicate: body.duplicate!, receipt: body.receipt });
      stats.answers++;
      retry.delete(item);
    }

    async function submitOnce(url: string, item: Item, text: string): Promise<boolean> {
      stats.posts++;
      inFlight++;
      try {
        const res = await fetch(url + SUBMIT_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
        const body = await res.text();
        note(item, res.status, res.headers, body);
        return true;
      } catch {
        // Connection refused or reset: the gateway was killed. The answer is lost; the client will retry.
        item.lost++;
        stats.lostRequests++;
        if (item.answers.length === 0) retry.add(item);
        return false;
      } finally {
        inFlight--;
      }
    }

    /** A receipt read while the gateway may die: when an answer comes, it must be the receipt the client holds. */
    async function readBack(url: string, item: Item): Promise<void> {
      const held = item.answers[0]!.receipt;
      stats.gets++;
      try {
        const res = await fetch(`${url}${RECEIPTS_PATH}/${held.receipt_id}`);
        const text = await res.text();
        if (res.status !== 200) return void unexpected.push(`read #${item.index} ${held.receipt_id}: ${res.status} ${text.slice(0, 300)}`);
        const body = JSON.parse(text) as { receipt: Receipt };
        if (JSON.stringify(body.receipt) !== JSON.stringify(held)) unexpected.push(`read #${item.index}: another receipt ${text.slice(0, 300)}`);
      } catch {
        // the gateway was killed
      }
    }

    async function worker(): Promise<void> {
      while (!stopping) {
        const url = current?.url;
        if (!url) {
          await sleep(5);
          continue;
        }
        const r = rng();
        const answered = sent.filter((i) => i.answers.length > 0);
        if (r < 0.1 && answered.length > 0) {
          await readBack(url, answered[Math.floor(rng() * answered.length)]!);
          continue;
        }
        let item: Item;
        if (r < 0.3 && retry.size > 0) {
          item = [...retry][Math.floor(rng() * retry.size)]!; // a retry of a request whose answer was lost
        } else if (r < 0.45 && sent.length > 0) {
          item = sent[Math.floor(rng() * sent.length)]!; // a duplicate, maybe of one still in flight
        } else {
          item = makeItem(items.length);
          items.push(item);
          sent.push(item);
        }
        await submitOnce(url, item, item.texts[rng() < 0.5 ? 0 : 1]);
      }
    }

    const workers = Array.from({ length: CONCURRENCY }, () => worker());
    const began = Date.now();
    try {
      let startMs = 0;
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        let child = start();
        if (cycle > 0 && rng() < 0.3) {
          // A kill while the gateway starts (loading, opening and recovering the store, or just listening).
          await sleep(Math.floor(rng() * startMs * 1.2));
          if (!child.url) stats.killedBeforeListening++;
          stats.startupKills++;
          await child.kill();
          child = start();
        }
        const spawned = Date.now();
        await child.ready;
        startMs = Math.min(Date.now() - spawned, 1_500);
        startTimes.push(Date.now() - spawned);
        current = child;
        // Serve until a random number of answers came back (a cold process answers slowly at first), then a random
        // moment later: the kill lands mid-stream, with requests in flight.
        const target = stats.answers + 3 + Math.floor(rng() * 30);
        const cap = Date.now() + 10_000;
        while (stats.answers < target && Date.now() < cap) await sleep(5);
        await sleep(Math.floor(rng() * 200));
        if (child.child.exitCode !== null) throw new Error(`${TAG}: the gateway exited by itself (${child.child.exitCode}):\n${child.output()}`);
        killsInFlight.push(inFlight);
        current = undefined;
        await child.kill();
      }
    } finally {
      // The workers stop; after the last start (no more kills), the client retries what it never got an answer for.
      stopping = true;
      await Promise.all(workers);
    }
    const last = start();
    const url = await last.ready;
    const checked = Date.now();
    for (const item of items) {
      // One retry suffices now that nothing kills the gateway; a few more in case a connection is refused.
      for (let attempt = 0; attempt < 5 && item.answers.length === 0; attempt++) {
        if (!(await submitOnce(url, item, item.texts[0]))) await sleep(50);
      }
      if (item.lost > 0 && item.answers[0]?.status === 200) stats.lostButStored++;
    }
    expect(unexpected, `${TAG}: unexpected answers`).toEqual([]);
    expect(
      items.filter((i) => i.answers.length === 0).map((i) => i.index),
      `${TAG}: submissions the gateway never answered after the last restart:\n${last.output()}`,
    ).toEqual([]);

    // The receipts the client holds: one receipt per submission, however often it was sent; at most one new intake.
    const keysDoc = JSON.parse(readFileSync(join(dataDir, KEYS_DOCUMENT_FILE), 'utf8')) as GatewayKeysDocument;
    expect(readGatewayKeys(keysDoc).problems, TAG).toEqual([]);
    expect(await fetch(url + GATEWAY_KEYS_PATH).then((r) => r.json()), `${TAG}: served keys`).toEqual(keysDoc);
    const keyIds = new Set<string>();
    for (const item of items) {
      const first = item.answers[0]!.receipt;
      keyIds.add(first.gateway_key_id);
      for (const a of item.answers) expect(a.receipt, `${TAG}: #${item.index} got two different receipts`).toEqual(first);
      expect(item.answers.filter((a) => !a.duplicate).length, `${TAG}: #${item.index} was taken in as new more than once`).toBeLessThanOrEqual(1);
      // Never lost: the request that stored it was answered, as new (not necessarily first: with PostgreSQL, a
      // concurrent duplicate on another connection can see the committed row and be answered before it).
      if (item.lost === 0) expect(item.answers.filter((a) => !a.duplicate).length, `${TAG}: #${item.index} never answered as new`).toBe(1);
      const v = verifyReceipt(first, keysDoc, { submissionSha256: item.sha, recordType: item.recordType });
      expect(v.valid, `${TAG}: receipt of #${item.index}: ${JSON.stringify(v.findings)}`).toBe(true);
    }
    expect([...keyIds], `${TAG}: one gateway key across restarts`).toHaveLength(1);

    // Every receipt is retrievable from the restarted gateway, unchanged.
    const queue = [...items];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const held = item.answers[0]!.receipt;
          const res = await fetch(`${url}${RECEIPTS_PATH}/${held.receipt_id}`);
          const body = (await res.json()) as { receipt: Receipt; status: string };
          expect(res.status, `${TAG}: GET receipt of #${item.index} ${held.receipt_id}`).toBe(200);
          expect(body, `${TAG}: GET receipt of #${item.index}`).toEqual({ receipt: held, status: 'pending' });
        }
      }),
    );

    // One more crash, then the file itself (read-only): the state a crash leaves is what must hold.
    await last.kill();
    {
      const { integrity, rows } = await database.inspect();
      expect(integrity, TAG).toEqual([{ integrity_check: 'ok' }]);
      const shas = rows.map((r) => r.submission_sha256);
      expect(shas.filter((sha, i) => shas.indexOf(sha) !== i), `${TAG}: submissions stored twice`).toEqual([]);
      const bySha = new Map(items.map((i) => [i.sha, i]));
      expect(rows.length, `${TAG}: rows vs distinct submissions sent`).toBe(items.length);
      for (const row of rows) {
        const item = bySha.get(row.submission_sha256 ?? '');
        expect(item, `${TAG}: a stored submission the client never sent: ${row.submission_sha256}`).toBeDefined();
        for (const column of ['receipt_id', 'submission_sha256', 'record_type', 'received_at', 'receipt_json', 'submission_text', 'status']) {
          expect(typeof row[column] === 'string' && row[column] !== '', `${TAG}: #${item!.index} column ${column} is empty`).toBe(true);
        }
        expect([row.status, row.reason, row.archive_path, row.decided_at], TAG).toEqual(['pending', null, null, null]);
        const receipt = JSON.parse(row.receipt_json!) as Receipt;
        const v = verifyReceipt(receipt, keysDoc, { submissionSha256: row.submission_sha256!, recordType: row.record_type as RecordType });
        expect(v.valid, `${TAG}: stored receipt of #${item!.index}: ${JSON.stringify(v.findings)}`).toBe(true);
        expect(receipt, `${TAG}: stored receipt of #${item!.index} vs the one the client got`).toEqual(item!.answers[0]!.receipt);
        expect([receipt.receipt_id, receipt.received_at], TAG).toEqual([row.receipt_id, row.received_at]);
        const judged = validateSubmissionText(row.submission_text!);
        expect(judged.valid, `${TAG}: stored text of #${item!.index}: ${JSON.stringify(judged.diagnostics)}`).toBe(true);
        expect([judged.submissionSha256, judged.recordType], TAG).toEqual([row.submission_sha256, row.record_type]);
        expect(item!.texts, `${TAG}: stored text of #${item!.index} is not what was sent`).toContain(row.submission_text);
      }
    }

    expect(killsInFlight.reduce((a, b) => a + b, 0), `${TAG}: no kill hit a request in flight`).toBeGreaterThan(0);
    console.log(
      `${TAG} ${kind.name}: ${Date.now() - began} ms (starts: ${startTimes.join(', ')} ms; checks ${Date.now() - checked} ms), ${CYCLES} kills while serving (requests in flight: ${killsInFlight.join(', ')}), ` +
        `${stats.startupKills} while starting (${stats.killedBeforeListening} before listening); ${items.length} submissions, ` +
        `${stats.posts} POSTs (${stats.lostRequests} answers lost, ${stats.lostButStored} stored though the answer was lost), ` +
        `${items.reduce((n, i) => n + i.answers.filter((a) => a.duplicate).length, 0)} duplicate answers, ${stats.gets} reads during the run`,
    );
  }, 60_000 + CYCLES * 5_000);
});
