/**
 * `npm run bench:claim-gate -- [--seconds S (3)] [--runs K (3)]`
 *
 * Claim Gate evaluations per second on one core (the gate is pure computation, one thread): over the real
 * system's evidence-input examples (../shared/corpus/claim-gate/examples, when present) and our own inputs, each
 * with variations (every requested level, each evidence list removed, hashes marked machine-computed). Also times
 * the two fixed costs of an evaluation, schema validation and the RFC 8785 input hash, so a regression shows
 * where it is. Rates are per second of this process's CPU time (user + system), which is what "one core" means on a
 * shared machine where wall-clock rates depend on the neighbours; the wall-clock rate is printed beside it.
 * Prints each run and the medians.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { canonicalJson } from '../src/core/canonical/jcs.ts';
import { sha256Hex } from '../src/core/crypto/sha256.ts';
import { evaluateClaimGate } from '../src/core/claim-gate/index.ts';
import { EVIDENCE_INPUT_SCHEMA_ID } from '../src/core/claim-gate/input.ts';
import { schemaErrors } from '../src/core/schema/compile.ts';
import { boundaryInput, fullInput, type Json } from './lib/claim-gate-inputs.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '3' }, runs: { type: 'string', default: '3' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  console.log('Usage: npm run bench:claim-gate -- [--seconds S (3)] [--runs K (3)]');
  process.exit(0);
}
const seconds = Number(values.seconds);
const runs = Number(values.runs);
if (!(seconds > 0) || !Number.isInteger(runs) || runs < 1) {
  console.error('bench:claim-gate: --seconds takes a positive number, --runs a positive integer');
  process.exit(2);
}

const EXAMPLES = resolve(import.meta.dirname, '../../shared/corpus/claim-gate/examples');
const bases: Json[] = [fullInput(), boundaryInput()];
if (existsSync(EXAMPLES)) {
  for (const f of readdirSync(EXAMPLES).filter((n) => n.endsWith('.json'))) bases.push(JSON.parse(readFileSync(join(EXAMPLES, f), 'utf8')).evidence_input);
} else {
  console.log(`(the corpus is not at ${EXAMPLES}: our own inputs only)`);
}

const LEVELS = ['V0', 'V1', 'V2', 'V3', 'V4', 'V4+', 'V5', 'V6', 'V8'];
const inputs: Json[] = [];
for (const base of bases) {
  inputs.push(base);
  for (const level of LEVELS) inputs.push({ ...base, claims_requested_by_agent: [level, 'B2', 'D2'] });
  for (const list of Object.keys(base.evidence ?? {})) {
    const { [list]: _, ...rest } = base.evidence;
    inputs.push({ ...base, evidence: rest });
  }
  const hashes = base.evidence?.hashes;
  if (Array.isArray(hashes)) inputs.push({ ...base, evidence: { ...base.evidence, hashes: hashes.map((h: Json) => ({ ...h, computed_by: 'machine' })) } });
}

/** Calls per CPU-second of this process, and per wall-clock second. */
function rate(fn: (input: Json) => unknown): { cpu: number; wall: number } {
  let n = 0;
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const until = start + seconds * 1000;
  while (performance.now() < until) for (const input of inputs) (fn(input), n++);
  const cpu = process.cpuUsage(cpu0);
  return { cpu: n / ((cpu.user + cpu.system) / 1e6), wall: n / ((performance.now() - start) / 1000) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

rate(evaluateClaimGate); // warm: schema compilation and JIT
const statuses = new Map<string, number>();
for (const input of inputs) {
  const s = evaluateClaimGate(input).status;
  statuses.set(s, (statuses.get(s) ?? 0) + 1);
}
const bytes = inputs.reduce((sum, i) => sum + canonicalJson(i).length, 0) / inputs.length;
console.log(`${inputs.length} inputs from ${bases.length} bases (mean ${fmt(bytes)} bytes; ${[...statuses].map(([s, n]) => `${n} ${s}`).join(', ')})`);

const gate: number[] = [];
const schema: number[] = [];
const hash: number[] = [];
const wall: number[] = [];
for (let r = 1; r <= runs; r++) {
  const g = rate(evaluateClaimGate);
  gate.push(g.cpu);
  wall.push(g.wall);
  schema.push(rate((i) => schemaErrors(i, EVIDENCE_INPUT_SCHEMA_ID)).cpu);
  hash.push(rate((i) => sha256Hex(canonicalJson(i))).cpu);
  console.log(`run ${r}: ${fmt(g.cpu)} evaluations per CPU-second (${fmt(g.wall)}/s wall clock); schema check alone ${fmt(schema.at(-1)!)}/s, JCS + SHA-256 alone ${fmt(hash.at(-1)!)}/s`);
}
const g = median(gate);
console.log(`median: ${fmt(g)} evaluations per CPU-second, one core (${(1e6 / g).toFixed(1)} µs each; ${fmt(median(wall))}/s wall clock); schema check ${((g / median(schema)) * 100).toFixed(0)}% and input hash ${((g / median(hash)) * 100).toFixed(0)}% of an evaluation's time`);
