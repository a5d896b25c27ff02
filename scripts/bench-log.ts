/**
 * `npm run bench:log -- --records N [--runs K]`
 *
 * The transparency log at N records, through the code the site build runs (src/site/build/6-transparency-log.ts):
 *   read    — read the committed log (<archive>/.tlog/: N leaf entries), hash the tree, check it against its tree
 *             head, match it with N records (leaf index and versions for each), load the signing key;
 *   publish — the hash tiles, entry bundles and signed checkpoint, written to disk (files and bytes reported);
 * then, as an agent's builder would, with the tiles read from disk: an inclusion proof check (signed checkpoint
 * opened, proof made from the tiles, verified) for random leaves, and a consistency proof check from N/2 to N,
 * each with a fresh tile reader (no cache between checks). Medians of K runs; the proof checks of 25 each.
 * The records are synthetic (ids and hashes only): the log never reads a record's body.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createHash } from 'node:crypto';
import { generateEd25519KeyPair } from '../src/core/crypto/ed25519.ts';
import { entriesFileText, leafEntryBytes, treeHeadOf, treeOf, type LogLeaf } from '../src/core/log/archive-log.ts';
import { openCheckpoint } from '../src/core/log/checkpoint.ts';
import { leafHash } from '../src/core/log/merkle.ts';
import { parseVerifierKey, signerKeyText } from '../src/core/log/note.ts';
import { verifyConsistency, verifyInclusion } from '../src/core/log/proof.ts';
import { TileReader } from '../src/core/log/tile-reader.ts';
import type { SiteRecord } from '../src/site/build/2-read-archive.ts';
import { readSiteLog, writeSiteLog } from '../src/site/build/6-transparency-log.ts';

const { values } = parseArgs({ options: { records: { type: 'string', default: '10000' }, runs: { type: 'string', default: '3' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log('Usage: npm run bench:log -- [--records N (10000)] [--runs K (3)]');
  process.exit(0);
}
const n = Number(values.records);
const runs = Number(values.runs);
if (!Number.isInteger(n) || n < 2 || !Number.isInteger(runs) || runs < 1) {
  console.error('bench:log: --records takes an integer ≥ 2 and --runs a positive integer');
  process.exit(2);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const dir = mkdtempSync(join(tmpdir(), 'echo-bench-log-'));
try {
  // N records, each one leaf (their current bytes), committed as the build would find them.
  const records: SiteRecord[] = [];
  const leaves: LogLeaf[] = [];
  for (let i = 0; i < n; i++) {
    const id = `echo-2026-01-01-${String(i + 1).padStart(6, '0')}`;
    const sha256 = createHash('sha256').update(id).digest('hex');
    records.push({ id, path: `2026/${id}.json`, archiveDate: '2026-01-01', sha256, record: {}, file: '', excerpt: '' });
    leaves.push({ id, index: i, sha256 });
  }
  const root = join(dir, 'records');
  mkdirSync(join(root, '.tlog'), { recursive: true });
  writeFileSync(join(root, '.tlog/entries.jsonl'), entriesFileText(leaves));
  writeFileSync(join(root, '.tlog/tree-head.json'), JSON.stringify(treeHeadOf(treeOf(leaves))));
  const keyFile = join(dir, 'log.key');
  const key = signerKeyText('bench.example/log', generateEd25519KeyPair().privateKey);
  writeFileSync(keyFile, key.signer + '\n', { mode: 0o600 });
  const env = { LOG_SIGNING_KEY_FILE: keyFile };
  const quiet = { info: () => {}, warn: (m: string) => console.warn(m) };

  const read: number[] = [];
  const publish: number[] = [];
  // CPU time of this process too: on a shared machine wall time mostly measures the neighbours.
  const cpu: number[] = [];
  let out = '';
  for (let r = 0; r < runs; r++) {
    out = join(dir, `site-${r}`);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const log = readSiteLog(root, records, quiet, env)!;
    const t1 = performance.now();
    writeSiteLog(log, out);
    const t2 = performance.now();
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    read.push(t1 - t0);
    publish.push(t2 - t1);
  }
  let files = 0;
  let bytes = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else {
        files++;
        bytes += s.size;
      }
    }
  };
  walk(join(out, 'log'));

  // Proof checks with the tiles from disk, as the builder does them (a fresh reader each time: nothing cached).
  const logDir = join(out, 'log');
  const fromDisk = async (path: string) => {
    try {
      return readFileSync(join(logDir, path));
    } catch {
      return undefined;
    }
  };
  const inclusion: number[] = [];
  const consistency: number[] = [];
  let tilesIncl = 0;
  let tilesCons = 0;

  const keys = [parseVerifierKey(key.verifier)];
  const oldRoot = treeOf(leaves.slice(0, Math.floor(n / 2))).root();
  for (let k = 0; k < 25; k++) {
    const index = Math.floor((k * 7919 + 13) % n);
    const t0 = performance.now();
    const cp = openCheckpoint(readFileSync(join(logDir, 'checkpoint'), 'utf8'), keys);
    const reader = new TileReader(cp.size, fromDisk);
    verifyInclusion(index, cp.size, leafHash(leafEntryBytes(leaves[index]!)), await reader.inclusionProof(index), cp.root);
    inclusion.push(performance.now() - t0);
    tilesIncl = reader.fetched;
    const t1 = performance.now();
    const cp2 = openCheckpoint(readFileSync(join(logDir, 'checkpoint'), 'utf8'), keys);
    const reader2 = new TileReader(cp2.size, fromDisk);
    verifyConsistency(Math.floor(n / 2), cp2.size, await reader2.consistencyProof(Math.floor(n / 2)), oldRoot, cp2.root);
    consistency.push(performance.now() - t1);
    tilesCons = reader2.fetched;
  }

  console.log(`bench:log — ${n.toLocaleString('en')} records (one leaf each), ${runs} run(s); Node ${process.version}`);
  console.log(`  read the committed log, hash the tree, check its head, match ${n} records:  ${read.map(ms).join(' / ')}  (median ${ms(median(read))})`);
  console.log(`  write tiles, entry bundles and the signed checkpoint:                        ${publish.map(ms).join(' / ')}  (median ${ms(median(publish))})`);
  console.log(`  together:                                                                   median ${ms(median(read.map((x, i) => x + publish[i]!)))} wall, ${ms(median(cpu))} CPU (${cpu.map(ms).join(' / ')})`);
  console.log(`  output: ${files} files, ${(bytes / 1024).toFixed(0)} KiB under /log/ (entries.jsonl committed: ${(statSync(join(root, '.tlog/entries.jsonl')).size / 1024).toFixed(0)} KiB)`);
  console.log(`  inclusion proof check (checkpoint opened, ${tilesIncl} tiles read from disk, proof verified): median ${ms(median(inclusion))}, max ${ms(Math.max(...inclusion))} (25 leaves)`);
  console.log(`  consistency proof check ${Math.floor(n / 2)} → ${n} (${tilesCons} tiles):                       median ${ms(median(consistency))}, max ${ms(Math.max(...consistency))} (25 runs)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
