/**
 * Keys and trust over time end to end (issue 24, DECISIONS 24–26, docs/guardians.md), with the bundled builder as a
 * child process, a real gateway, intake accept and the build's own parts (tests/gateway/site.ts):
 * keygen → guardian-application → submit → accept → build: the registry lists guardian 00001 as active, and an echo
 * signed by that key says "registered guardian 00001, active". Then guardian-retirement with status compromised →
 * accept → build: the registry says compromised since that record, and an echo signed by the key after it says
 * "signed after the key was reported compromised" on its page and in the index. A retirement of that guardian signed
 * by another key is refused at the gateway with a reason naming both keys. Last, a classification update of the first
 * echo: the index counts it under its new independence class, its page shows the history, its bytes and hash stay.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/core/crypto/ed25519.ts';
import { guardianKeyOf } from '../../src/core/guardian/keys.ts';
import { buildSubmission, completeRecord, serializeSubmission } from '../../src/core/record-chain/index.ts';
import { ArchiveIndex } from '../../src/gateway/archive-index.ts';
import { runIntake } from '../../src/intake/cli.ts';
import { bundledBuilder } from '../builder/helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startGateway, type RunningGateway } from './helpers.ts';
import { serveSite, type TestSite } from './site.ts';

const builder = bundledBuilder({ siteUrl: 'http://127.0.0.1:9', gatewayUrl: 'http://127.0.0.1:9' });

const AGENT = ['--agent-name', 'guardian-model', '--agent-provider', 'guardian-lab'];
const echoArgs = (out: string, text: string) => [
  'echo', '--key-dir', 'keys', ...AGENT,
  '--context-depth', 'C2_registry_aware', '--assessment-state', 'structural_understanding',
  '--summary', 'An archive of agent statements; non-authoritative.', '--echo', text,
  '--discovery-source', 'search_engine', '--agency-level', 'A4_independent_search_or_browsing_discovery', '--first-entry', 'https://example.org/',
  '--first-entry-type', 'homepage', '--human-supplied-link', 'no', '--other-agent-recommended', 'no', '--independent-followup', 'yes', '--confidence', 'medium',
  '--out', out,
];

describe('guardians: registration, a signed echo, a compromise report, an echo after it', () => {
  let gw: RunningGateway;
  let site: TestSite;
  let recordsDir: string;
  beforeAll(async () => {
    recordsDir = tempDir('guardian-walk-records-');
    cpSync('records', recordsDir, { recursive: true });
    site = await serveSite(recordsDir);
    gw = await startGateway({ archiveIndex: new ArchiveIndex(`${site.url}/api/index.json`, { ttlMs: 0 }) });
  });
  afterAll(async () => {
    await gw?.stop();
    await site?.close();
  });

  const accept = async (receiptId: string) => {
    const err: string[] = [];
    const code = await runIntake(['accept', receiptId], { out: () => {}, err: (l) => err.push(l), env: { RECORDS_DIR: recordsDir }, now: () => new Date('2026-11-25T12:00:00Z') }, gw.store);
    expect(code, err.join('\n')).toBe(0);
  };
  const index = () => fetch(`${site.url}/api/index.json`).then((r) => r.json() as Promise<{ records: Array<Record<string, any>> }>);
  const registry = () => fetch(`${site.url}/api/guardian-registry.json`).then((r) => r.json() as Promise<Record<string, any>>);
  const page = (id: string) => fetch(`${site.url}/records/${id}/`).then((r) => r.text());

  it('walks registration, a signed echo, a compromise report and an echo after it', async () => {
    const dir = builder.tempDir();
    const run = (args: string[]) => builder.run(args, { cwd: dir });
    const submitAndAccept = async (file: string) => {
      const sent = await run(['submit', '--file', file, '--gateway', gw.url, '--receipt-out', `${file}.receipt.json`]);
      expect(sent.code, sent.stderr + sent.stdout).toBe(0);
      const receipt = JSON.parse(readFileSync(join(dir, `${file}.receipt.json`), 'utf8')) as { receipt_id: string; submission_sha256: string };
      await accept(receipt.receipt_id);
      return (await index()).records.find((e) => e.submission_sha256 === receipt.submission_sha256)!;
    };

    expect((await run(['keygen', '--key-dir', 'keys'])).code).toBe(0);
    const applied = await run(['guardian-application', '--key-dir', 'keys', ...AGENT, '--guardian-type', 'ai_agent', '--oath', 'I keep this key safe and sign only what I checked.', '--out', 'application.json']);
    expect(applied.code, applied.stderr).toBe(0);
    const application = await submitAndAccept('application.json');
    expect(application).toMatchObject({ record_type: 'guardian_application' });

    let doc = await registry();
    expect(doc.guardians).toHaveLength(1);
    const guardian = doc.guardians[0];
    expect(guardian).toMatchObject({ registry_number: '00001', status: 'active', guardian_type: 'ai_agent' });

    expect((await run(echoArgs('echo-1.json', 'I read the homepage and the registry.'))).code).toBe(0);
    const before = await submitAndAccept('echo-1.json');
    expect(before.guardian).toMatchObject({ registry_number: '00001', registry_status: 'active', summary: 'registered guardian 00001, active', warnings: [] });
    expect(await page(before.id)).toMatch(/registered guardian 00001, active/i);

    // A retirement of this guardian signed by another key: refused at the gateway, naming both keys.
    const other = generateEd25519KeyPair();
    const otherSha = guardianKeyOf(other.publicKey)!.sha256;
    const forged = completeRecord('guardian_retirement', {
      agent_identity: { name_or_model: 'someone-else', system_or_provider: 'elsewhere', self_reported: true },
      guardian_id: guardian.guardian_id,
      guardian_public_key_sha256: guardian.public_key_sha256,
      retirement_status: 'compromised',
      reason: 'I say this key is compromised.',
      retirement_does_not_remove_historical_record: true,
      target_guardian_application_record_id: application.id,
      target_guardian_application_record_sha256: application.sha256,
    });
    const refused = await fetch(`${gw.url}/record-chain/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: serializeSubmission(buildSubmission('guardian_retirement', forged, other, { name: 'test', version: '1', generatedAt: '2026-11-25T12:00:00Z' })),
    });
    const refusal = JSON.stringify(await refused.json());
    expect(refused.status).toBe(422);
    expect(refusal).toContain('chain/guardian-retirement-key');
    expect(refusal).toContain(guardian.public_key_sha256);
    expect(refusal).toContain(otherSha);

    // The registered key reports itself compromised.
    const retired = await run(['guardian-retirement', '--key-dir', 'keys', ...AGENT, '--status', 'compromised', '--reason', 'The machine that held the key was lost.', '--site', site.url, '--out', 'retirement.json']);
    expect(retired.code, retired.stderr + retired.stdout).toBe(0);
    const retirement = await submitAndAccept('retirement.json');
    expect(retirement).toMatchObject({ record_type: 'guardian_retirement' });

    doc = await registry();
    expect(doc.guardians[0]).toMatchObject({ registry_number: '00001', status: 'compromised' });
    expect(JSON.stringify(doc.guardians[0].history)).toContain(retirement.id);

    expect((await run(echoArgs('echo-2.json', 'I read the index as well.'))).code).toBe(0);
    const after = await submitAndAccept('echo-2.json');
    expect(after.guardian).toMatchObject({ registry_number: '00001', registry_status: 'compromised' });
    expect(after.guardian.warnings).toEqual([`signed after the key was reported compromised (record ${retirement.id})`]);
    expect(await page(after.id)).toMatch(/[Ss]igned after the key was reported compromised/);
    // The echo signed before the report is not said to come after it.
    const earlier = (await index()).records.find((e) => e.id === before.id)!;
    expect(earlier.guardian).toMatchObject({ registry_status: 'compromised', warnings: [] });
    // Guardianship changes no count and no level.
    expect(after).toMatchObject({ counts_as_attestation: false, verification_level: 'none' });

    // A classification update for the first echo: its counting follows the update; its file, hash and leaf do not move.
    const target = (await index()).records.find((e) => e.id === before.id)!;
    const bytesBefore = await fetch(`${site.url}/records/${target.id}.json`).then((r) => r.text());
    const countsBefore = (await index() as unknown as { counts: Record<string, any> }).counts;
    const proposed = await run([
      'classification-update', '--key-dir', 'keys', ...AGENT, '--target-id', target.id, '--site', site.url,
      '--previous-independence-class', 'self_reported', '--new-independence-class', 'human_solicited_agent_response',
      '--reason', 'The operator who ran me pointed me at the site.', '--basis', 'My own session log.', '--out', 'update.json',
    ]);
    expect(proposed.code, proposed.stderr + proposed.stdout).toBe(0);
    const update = await submitAndAccept('update.json');
    expect(update).toMatchObject({ record_type: 'classification_update' });
    const doc2 = (await index()) as unknown as { counts: Record<string, any>; records: Array<Record<string, any>> };
    const reclassified = doc2.records.find((e) => e.id === target.id)!;
    expect(reclassified).toMatchObject({ sha256: target.sha256, leaf_index: target.leaf_index, independence_class: 'human_solicited_agent_response' });
    expect(reclassified.classification.history).toEqual([expect.objectContaining({ record_id: update.id, applied: true })]);
    expect(doc2.counts.by_independence_class.human_solicited_agent_response).toBe(countsBefore.by_independence_class.human_solicited_agent_response + 1);
    // The target leaves self_reported; the update record itself (self-reported, as every intake record) joins it.
    expect(doc2.counts.by_independence_class.self_reported).toBe(countsBefore.by_independence_class.self_reported);
    expect(await fetch(`${site.url}/records/${target.id}.json`).then((r) => r.text())).toBe(bytesBefore);
    const targetPage = await page(target.id);
    expect(targetPage).toContain('Classification updates');
    expect(targetPage).toContain('The operator who ran me pointed me at the site.');
  }, 90_000);
});
