/**
 * The strict evidence pipeline end to end (issue 13, "Done means"), on loopback with the bundled builder as a child
 * process: evidence over real files of this repository and a raw record fetched over HTTP (expected hashes from
 * coreutils' sha256sum, not from our code) → claim-gate → report → doctor → preflight → submit → intake accept into a temporary archive → the archive
 * validates → the site's record page (the build's own renderer) shows the gate's finding and the public index its
 * facets → readback. And an inflated claim is refused by the builder, the gateway and the archive validator, each
 * with the gate's reason.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKeyDir } from '../../src/builder/keys.ts';
import { loadArchive } from '../../src/core/archive/load-archive.ts';
import { archiveDateOf } from '../../src/core/archive/paths.ts';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { buildPublicIndex } from '../../src/core/publish/public-index.ts';
import type { PublishRecord } from '../../src/core/publish/records.ts';
import { buildSubmission, PREFLIGHT_PATH, serializeSubmission, SUBMIT_PATH, type JsonObject, type Submission } from '../../src/core/record-chain/index.ts';
import { runIntake } from '../../src/intake/cli.ts';
import { declaration } from '../../scripts/lib/claim-gate-inputs.ts';
import { bundledBuilder } from '../builder/helpers.ts';
import { claimGateSectionText, recordPageMain } from '../helpers/claim-gate-section.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { postJson, startGateway, type RunningGateway } from './helpers.ts';

const builder = bundledBuilder({ siteUrl: 'http://127.0.0.1:9', gatewayUrl: 'http://127.0.0.1:9' });

/** Real files of this repository: the artifacts the agent hashes. */
const ARTIFACTS = [resolve('schemas/echo-record-schema.v3.json'), resolve('documents/claim-gate-rules.json')];

/** "<hex>  <name>" lines from coreutils' sha256sum (an implementation that is not ours); Node's own hash otherwise. */
function sha256sums(files: readonly string[]): string {
  try {
    return execFileSync('sha256sum', [...files], { encoding: 'utf8' });
  } catch {
    console.log('sha256sum not found: expected hashes from node:crypto instead');
    return files.map((f) => `${createHash('sha256').update(readFileSync(f)).digest('hex')}  ${f}\n`).join('');
  }
}

/** The agent's own words and declarations, which the evidence command takes from --content. */
const CONTENT = {
  evidence: { echo_context: { authority_boundary_recognized: true, bitcoin_originals_prevail: true, echo_is_not_authority: true, mirror_is_not_amendment: true } },
  agent_integrity_declaration: declaration,
};

const EVIDENCE_ARGS = [
  '--content', 'content.json',
  '--expected-file', 'SHA256SUMS',
  '--expected-source', 'sha256sum over the repository checkout',
  '--expected-authority', 'repository_manifest_hash',
  '--claim', 'V3',
  '--record-kind', 'echo_v3',
  '--agent-name', 'walk-test-agent',
  '--solicited', 'yes',
  '--independence-class', 'human_solicited_agent_response',
  '--agency-level', 'A1_human_gave_exact_url',
  '--limitation', 'two repository files only',
];

const REPORT_ARGS = [
  '--key-dir', 'keys',
  '--agent-name', 'walk-test-agent',
  '--agent-provider', 'test-provider',
  '--subject', 'SHA-256 of two files of the repository',
  '--summary', 'The builder hashed both files; both match the sha256sum list.',
  '--digital-profile', 'integrity_checked',
  '--relationship', 'each file hashes to its sha256sum line',
  '--coverage-scope', 'minimal_single_check',
  '--covered', 'two repository files',
  '--limitation', 'two files only',
  '--claim-not-made', 'nothing about other files',
  '--corrections-checked', 'no',
  '--discovery-source', 'human_directed',
  '--agency-level', 'A1_human_gave_exact_url',
  '--first-entry', 'https://example.org/',
  '--first-entry-type', 'homepage',
  '--human-supplied-link', 'yes',
  '--other-agent-recommended', 'no',
  '--independent-followup', 'no',
  '--confidence', 'high',
];

function serveSite(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    void (async () => {
      const records = await publishRecords(root);
      if (req.url === '/api/index.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(buildPublicIndex(records).index.text);
      const m = /^\/records\/([^/]+)\.json$/.exec(req.url ?? '');
      const file = m && (await loadArchive(root)).files.find((f) => f.id === decodeURIComponent(m[1]!));
      if (file?.bytes) return void res.writeHead(200, { 'content-type': 'application/json' }).end(file.bytes);
      res.writeHead(404).end();
    })();
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })));
}

async function publishRecords(root: string): Promise<PublishRecord[]> {
  const archive = await loadArchive(root);
  return archive.files
    .filter((f) => f.record && f.bytes)
    .map((f) => ({ id: f.id, path: f.path, archiveDate: archiveDateOf(f.id) ?? null, sha256: sha256Hex(f.bytes!), record: f.record! }));
}

describe('strict evidence pipeline end to end', () => {
  let gw: RunningGateway;
  let site: { url: string; server: Server };
  let recordsDir: string;
  let dir: string;
  const run = (args: string[]) => builder.run(args, { cwd: dir });

  beforeAll(async () => {
    gw = await startGateway({ rateLimit: false });
    recordsDir = tempDir('claim-gate-e2e-records-');
    cpSync('records', recordsDir, { recursive: true });
    site = await serveSite(recordsDir);
  });
  afterAll(async () => {
    await gw.stop();
    await new Promise((done) => site.server.close(done));
  });

  it('evidence → claim-gate → report → doctor → preflight → submit → intake accept → validate → page and index → readback', async () => {
    dir = builder.tempDir();
    // A third artifact fetched over HTTP: a raw record as the test site serves it, its expected hash from the file.
    const served = 'echo-2026-01-14-000001.json';
    writeFileSync(join(dir, 'SHA256SUMS'), sha256sums([...ARTIFACTS, resolve('records/2026', served)]));
    writeFileSync(join(dir, 'content.json'), JSON.stringify(CONTENT));
    expect((await run(['keygen', '--key-dir', 'keys'])).code).toBe(0);

    const ev = await run(['evidence', ...ARTIFACTS.flatMap((a) => ['--artifact', a]), '--artifact-url', `${site.url}/records/${served}`, ...EVIDENCE_ARGS, '--out', 'evidence.json']);
    expect(ev.code, ev.stderr).toBe(0);
    const evidence = JSON.parse(readFileSync(join(dir, 'evidence.json'), 'utf8'));
    expect(evidence.schema).toBe('service.evidence-input.v1');
    expect(evidence.evidence.hashes).toHaveLength(3);
    for (const h of evidence.evidence.hashes) {
      expect(h).toMatchObject({ computed_by: 'machine', match: true, algorithm: 'SHA-256' });
      const local = h.artifact.startsWith('http') ? resolve('records/2026', served) : h.artifact;
      expect(h.computed).toBe(createHash('sha256').update(readFileSync(local)).digest('hex'));
      expect(h.command).toContain(h.artifact.startsWith('http') ? 'evidence --artifact-url' : 'evidence --artifact');
    }
    expect(evidence.verification_session.fresh_actions_performed[0]).toMatch(/^ran: node record-chain-builder\.mjs evidence /);

    const gate = await run(['claim-gate', '--input', 'evidence.json', '--out', 'gate.json']);
    expect(gate.code, gate.stderr + gate.stdout).toBe(0);
    const gateOutput = JSON.parse(readFileSync(join(dir, 'gate.json'), 'utf8'));
    expect(gateOutput).toMatchObject({ status: 'PASS', allowed_protocol_level: 'V3' });

    const rep = await run(['report', '--input', 'evidence.json', '--gate-output', 'gate.json', ...REPORT_ARGS, '--out', 'v.json']);
    expect(rep.code, rep.stderr).toBe(0);
    const submission = JSON.parse(readFileSync(join(dir, 'v.json'), 'utf8')) as Submission;
    expect(submission.record.claim_gate_output).toEqual(gateOutput);
    expect(submission.record.evidence_input).toEqual(evidence);
    expect((submission.record.verification_claim as JsonObject).legacy_v_level).toBe('V3');
    expect(submission.record.generated_by).toMatchObject({ validation_result: 'PASS', validation_command: 'node record-chain-builder.mjs claim-gate --input evidence.json', report_builder: 'echo-archive-record-chain-builder' });

    const doc = await run(['doctor', '--file', 'v.json']);
    expect(doc.code, doc.stdout).toBe(0);
    expect(doc.stdout).toContain('claim gate: PASS, allowed level V3');

    const pre = await run(['preflight', '--file', 'v.json', '--gateway', gw.url]);
    expect(pre.code, pre.stderr + pre.stdout).toBe(0);
    expect(pre.stdout).toContain('claim gate (re-evaluated by the gateway): PASS, allowed level V3');
    const preBody = (await postJson(gw.url + PREFLIGHT_PATH, readFileSync(join(dir, 'v.json')))).body;
    expect(preBody).toMatchObject({ valid: true, claim_gate: { status: 'PASS', allowed_protocol_level: 'V3' } });
    expect(preBody.claim_gate.output).toEqual(gateOutput);

    const sub = await run(['submit', '--file', 'v.json', '--gateway', gw.url, '--receipt-out', 'r.json']);
    expect(sub.code, sub.stderr + sub.stdout).toBe(0);
    const receipt = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));

    const index = `${site.url}/api/index.json`;
    expect((await run(['readback', '--file', 'v.json', '--index', index])).code).toBe(1);
    const err: string[] = [];
    const out: string[] = [];
    const accepted = await runIntake(['accept', receipt.receipt_id], { out: (l) => out.push(l), err: (l) => err.push(l), env: { RECORDS_DIR: recordsDir }, now: () => new Date() }, gw.store);
    expect(accepted, err.join('\n')).toBe(0);

    // The archived record: valid in the archive, with the gate's output and the run's generated_by.
    const report = await validateArchive(recordsDir);
    expect(report.files.filter((f) => !f.valid).map((f) => f.diagnostics), 'archive valid').toEqual([]);
    const records = await publishRecords(recordsDir);
    const archived = records.find((r) => (r.record.extensions as JsonObject | undefined)?.record_chain && ((r.record.extensions as JsonObject).record_chain as JsonObject).submission_sha256 === receipt.submission_sha256)!;
    expect(archived.record.claim_gate_output).toEqual(gateOutput);
    expect(archived.record.generated_by).toEqual(submission.record.generated_by);

    // What the site shows: the gate's finding on the record page (re-evaluated from the signed record), the facets.
    const text = claimGateSectionText(recordPageMain(archived.record, archived.id)) ?? '';
    expect(text).toContain("The archive's Claim Gate ran the published rules");
    expect(text).toContain('identical to this re-evaluation');
    expect(text).toContain('Pass: the claim requested may be made as it stands PASS');
    expect(text).toContain('Allowed levelV3');
    expect(text).toContain('signed claim: legacy V level V3');
    expect(text).toContain('it does not vouch for the record');
    const entry = buildPublicIndex(records).entries.find((e) => e.id === archived.id)!;
    expect(entry).toMatchObject({ claim_gate_status: 'PASS', claim_gate_allowed_level: 'V3', submission_sha256: receipt.submission_sha256 });

    const readback = await run(['readback', '--file', 'v.json', '--index', index]);
    expect(readback.code, readback.stderr + readback.stdout).toBe(0);
  }, 60_000);

  describe('an inflated claim is refused, with the gate’s reason', () => {
    /** An evidence input whose only hash was typed by hand: the gate allows a reference check (V2), not V3. */
    async function handTypedEvidence(): Promise<string> {
      const hex = createHash('sha256').update(readFileSync(ARTIFACTS[0]!)).digest('hex');
      const ev = await run(['evidence', '--computed', `echo-record-schema.v3.json=${hex}`, '--expected', `echo-record-schema.v3.json=${hex}`, ...EVIDENCE_ARGS.filter((a) => a !== 'SHA256SUMS' && a !== '--expected-file'), '--out', 'hand.json']);
      expect(ev.code, ev.stderr).toBe(0);
      const input = JSON.parse(readFileSync(join(dir, 'hand.json'), 'utf8'));
      expect(input.evidence.hashes[0]).toMatchObject({ computed_by: 'self_reported', computed: hex });
      const gate = await run(['claim-gate', '--input', 'hand.json']);
      expect(gate.stdout + gate.stderr).toMatch(/V2/);
      return 'hand.json';
    }

    it('by the builder: report refuses a level above the gate, and prints its reasons', async () => {
      dir = builder.tempDir();
      writeFileSync(join(dir, 'content.json'), JSON.stringify(CONTENT));
      expect((await run(['keygen', '--key-dir', 'keys'])).code).toBe(0);
      const input = await handTypedEvidence();
      const refused = await run(['report', '--input', input, ...REPORT_ARGS, '--legacy-v-level', 'V3', '--out', 'v3.json']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('refused: --legacy-v-level V3: verification_level V3 is higher than the Claim Gate allows (V2)');
      expect(refused.stderr).toMatch(/Downgrade V3 → V2 \[gate\/protocol-level\]: V3 needs/);
      // Without --legacy-v-level the report claims what the gate allows, and says so.
      const allowed = await run(['report', '--input', input, ...REPORT_ARGS, '--out', 'v2.json']);
      expect(allowed.code, allowed.stderr).toBe(0);
      const claimV2 = JSON.parse(readFileSync(join(dir, 'v2.json'), 'utf8')).record.verification_claim as JsonObject;
      expect(claimV2.legacy_v_level).toBe('V2');
      expect((claimV2.limitations as string[]).some((l) => l.startsWith('Claim Gate downgrade V3 → V2: V3 needs'))).toBe(true);
    }, 30_000);

    it('a hash that does not match: evidence and claim-gate say no, and report builds nothing (a blocking failure)', async () => {
      const wrong = 'f'.repeat(64);
      const ev = await run(['evidence', '--artifact', ARTIFACTS[0]!, '--expected', `echo-record-schema.v3.json=${wrong}`, ...EVIDENCE_ARGS.filter((a) => a !== 'SHA256SUMS' && a !== '--expected-file'), '--out', 'bad.json']);
      expect(ev.code).toBe(1);
      expect(ev.stderr).toContain('MISMATCH');
      expect(JSON.parse(readFileSync(join(dir, 'bad.json'), 'utf8')).evidence.hashes[0]).toMatchObject({ computed_by: 'machine', match: false, expected: wrong });
      const gate = await run(['claim-gate', '--input', 'bad.json']);
      expect(gate.code).toBe(1);
      const rep = await run(['report', '--input', 'bad.json', ...REPORT_ARGS, '--out', 'fail.json']);
      expect(rep.code).toBe(1);
      expect(rep.stderr).toContain('refused: the Claim Gate found a blocking failure');
      expect(rep.stderr).toMatch(/Blocking failure: .*echo-record-schema\.v3\.json/);
      expect(existsSync(join(dir, 'fail.json'))).toBe(false);
    }, 30_000);

    it('by the gateway: 422 with the gate’s reasons for a signed claim above the gate or a forged gate output', async () => {
      const base = JSON.parse(readFileSync(join(dir, 'v2.json'), 'utf8')) as Submission;
      const keys = loadKeyDir(join(dir, 'keys'));
      const resign = (record: JsonObject) => serializeSubmission(buildSubmission('verification', record, keys, { name: 'test', version: '0' }));

      const inflated = structuredClone(base.record);
      (inflated.verification_claim as JsonObject).legacy_v_level = 'V3';
      const answer = await postJson(gw.url + SUBMIT_PATH, resign(inflated));
      expect(answer.status).toBe(422);
      expect(answer.body.error.claim_gate).toMatchObject({ allowed_protocol_level: 'V2' });
      expect(answer.body.error.claim_gate.reasons.join(' ')).toMatch(/V3 needs/);
      const finding = answer.body.error.diagnostics.find((d: { rule: string }) => d.rule === 'chain/claim-gate');
      expect(finding.pointer).toBe('/record/verification_claim/legacy_v_level');
      expect(finding.message).toMatch(/^legacy_v_level: verification_level V3 is higher than the Claim Gate allows \(V2\) .*The gate's reasons: .*V3 needs/);

      const forged = structuredClone(inflated);
      forged.claim_gate_output = { ...(forged.claim_gate_output as JsonObject), status: 'PASS', allowed_protocol_level: 'V3', required_downgrades: [] };
      const forgedAnswer = await postJson(gw.url + SUBMIT_PATH, resign(forged));
      expect(forgedAnswer.status).toBe(422);
      const messages = forgedAnswer.body.error.diagnostics.filter((d: { rule: string }) => d.rule === 'chain/claim-gate').map((d: { message: string }) => d.message);
      expect(messages.some((m: string) => m.startsWith('claim_gate_output is not what the Claim Gate answers for this evidence_input (it differs in allowed_protocol_level, required_downgrades, status)'))).toBe(true);
      expect(await gw.store.list()).toHaveLength(1); // only the walk's submission was stored

      // doctor says the same offline.
      writeFileSync(join(dir, 'forged.json'), resign(forged));
      const doctor = await run(['doctor', '--file', 'forged.json']);
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toContain('chain/claim-gate');
    }, 30_000);

    it('by the archive validator: the report pair is valid as written, and an inflated level is an error citing the gate', async () => {
      const archiveDir = tempDir('claim-gate-e2e-pair-');
      const rep = await run(['report', '--input', 'hand.json', ...REPORT_ARGS, '--out', 'pair.json', '--archive-dir', archiveDir, '--context-depth', 'C4_artifact_verified', '--assessment-state', 'evidence_based_assessment']);
      expect(rep.code, rep.stderr).toBe(0);
      const clean = await validateArchive(archiveDir);
      expect(clean.summary).toMatchObject({ files: 2, invalid: 0 });
      const echoFile = clean.files.find((f) => f.file.record?.record_kind === 'echo_v3_with_verification_report')!;
      const path = join(archiveDir, echoFile.path);
      const record = JSON.parse(readFileSync(path, 'utf8'));
      expect(record).toMatchObject({ verification_level: 'V2', claim_gate_output: { allowed_protocol_level: 'V2' } });
      record.verification_level = 'V3';
      writeFileSync(path, JSON.stringify(record, null, 2) + '\n');
      const inflated = await validateArchive(archiveDir);
      const found = inflated.files.flatMap((f) => f.diagnostics).filter((d) => d.rule === 'cross/claim-gate-level');
      expect(found).toHaveLength(1);
      expect(found[0]!.message).toMatch(/^verification_level V3 is higher than the Claim Gate allows \(V2\) .*The gate's downgrades: V3 → V2: V3 needs/);
    }, 30_000);
  });
});
