/**
 * Accepting the three record types about keys and trust (docs/guardians.md section 3, DECISIONS 24–26): each becomes
 * the Echo v3 record the contract describes, which the core validates, with a presence proof that holds; each is
 * bound to the archive at accept (refused while what it names is not archived, rejected with what to change
 * otherwise); and the file of the record it names is never rewritten.
 */
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArchive } from '../../src/core/archive/load-archive.ts';
import { validateArchive } from '../../src/core/archive/validate-archive.ts';
import { sha256Hex } from '../../src/core/crypto/sha256.ts';
import { checkPresenceProof } from '../../src/core/guardian/presence-proof.ts';
import { deriveGuardianRegistry } from '../../src/core/guardian/registry.ts';
import { buildReceipt, serializeSubmission, signReceipt, type JsonObject, type Submission } from '../../src/core/record-chain/index.ts';
import { classificationViews } from '../../src/core/record/classification.ts';
import { recordLinkOf } from '../../src/core/record/record-chain-fields.ts';
import { loadOrCreateGatewayKey } from '../../src/gateway/keys.ts';
import { SqliteSubmissionStore } from '../../src/gateway/store.ts';
import { recordFileText, validateAsArchiveFile } from '../../src/intake/archive-writer.ts';
import { runIntake } from '../../src/intake/cli.ts';
import { content, GUARDIAN, KEYS, submission } from '../record-chain/helpers.ts';
import { applicationOf, classificationUpdateOf, newGuardian, retirementOf } from '../helpers/guardians.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const idAt = (n: number) => `echo-2026-11-22-${String(n).padStart(6, '0')}`;
const pathAt = (n: number) => `2026/${idAt(n)}.json`;
const OATH = (content('guardian_application').guardian_application_content as JsonObject).guardian_stewardship_oath as string;

async function setup() {
  const dataDir = tempDir('guardians-data-');
  const recordsDir = tempDir('guardians-records-');
  cpSync(resolve(REPO_ROOT, 'records'), recordsDir, { recursive: true });
  const keys = loadOrCreateGatewayKey(dataDir);
  const store = new SqliteSubmissionStore(dataDir);
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: { RECORDS_DIR: recordsDir, GATEWAY_DATA_DIR: dataDir }, now: () => NOW };
  const run = (argv: string[]) => runIntake(argv, io, store);
  const intake = async (sub: Submission) => {
    const receipt = signReceipt(
      buildReceipt({ submissionSha256: sub.proof.content_hash_sha256, recordType: sub.record_type, indexUrl: 'http://127.0.0.1:1/api/index.json', gatewayKeyId: keys.keyId }),
      keys.privateKey,
    );
    await store.putIfAbsent({ receiptId: receipt.receipt_id, submissionSha256: receipt.submission_sha256, recordType: sub.record_type, receivedAt: receipt.received_at, receipt, submissionText: serializeSubmission(sub) });
    return receipt;
  };
  const raw = (path: string) => readFileSync(join(recordsDir, path));
  const read = (path: string) => JSON.parse(raw(path).toString('utf8')) as JsonObject;
  /** Takes `sub` in and accepts it; the exit code, its receipt, and the last message. */
  const accept = async (sub: Submission) => {
    const receipt = await intake(sub);
    const code = await run(['accept', receipt.receipt_id]);
    return { code, receipt, message: code === 0 ? t.out.at(-1)! : t.err.at(-1)! };
  };
  /** An archived record as the public index names it: its id and its file's SHA-256. */
  const link = (n: number) => ({ record_id: idAt(n), record_sha256: sha256Hex(raw(pathAt(n))) });
  const files = () => readdirSync(join(recordsDir, '2026')).sort();
  const t = { store, recordsDir, out, err, run, intake, accept, raw, read, link, files };
  return t;
}

type Setup = Awaited<ReturnType<typeof setup>>;

const chainOf = (record: JsonObject) => (record.extensions as { record_chain: JsonObject }).record_chain;

/** The record at `path` is valid in the archive as the core judges a candidate, with nothing to say about it. */
async function expectValidInArchive(t: Setup, path: string) {
  const archive = await loadArchive(t.recordsDir);
  const verdict = validateAsArchiveFile(archive, path, t.raw(path).toString('utf8'));
  expect(verdict.diagnostics).toEqual([]);
  expect(verdict.valid).toBe(true);
}

/** The archive stays valid, and what this accept wrote has nothing to say (the project's own records are not judged here). */
async function expectArchiveClean(t: Setup) {
  const report = await validateArchive(t.recordsDir);
  expect(report.summary.invalid, JSON.stringify(report.files.filter((f) => !f.valid).map((f) => [f.path, f.diagnostics]))).toBe(0);
  expect(report.files.filter((f) => f.path.startsWith('2026/echo-2026-11-22-')).flatMap((f) => f.diagnostics)).toEqual([]);
}

async function archivedRecords(t: Setup) {
  const archive = await loadArchive(t.recordsDir);
  return archive.files.filter((f) => f.record).map((f) => ({ id: f.id, sha256: sha256Hex(f.bytes!), archiveDate: null, record: f.record! }));
}

/** Accepts the helpers' key's application as record 16. */
async function applied(t: Setup) {
  const sub = applicationOf(KEYS, { application_mode: 'individual' });
  const done = await t.accept(sub);
  expect(done.code, t.err.join('\n')).toBe(0);
  expect(existsSync(join(t.recordsDir, pathAt(16)))).toBe(true);
  return { sub, ...done };
}

describe('accepting a guardian_application', () => {
  it('writes guardian_registration and the presence proof made from the submission\'s proof, which hold in the archive', async () => {
    const t = await setup();
    const { sub, receipt } = await applied(t);
    const record = t.read(pathAt(16));
    expect(record).toMatchObject({ record_kind: 'echo_v3', archive_status: 'needs_human_review' });
    expect(record.guardian_registration).toEqual({
      schema: 'service.guardian-registration.v1',
      guardian_id: GUARDIAN.guardianId,
      guardian_type: 'ai_agent',
      public_key_sha256: GUARDIAN.sha256,
      algorithm: 'ed25519',
      declared_intent: OATH,
      boundaries: {
        not_authority: true,
        not_governance: true,
        not_verification_level: true,
        not_attestation: true,
        not_successor_reception: true,
        not_same_conscious_subject_proof: true,
        may_exit_or_retire_key: true,
        bitcoin_originals_prevail: true,
      },
      application_mode: 'individual',
    });
    const proof = record.guardian_presence_proof as JsonObject;
    expect(proof).toMatchObject({
      proof_mode: 'record_bound',
      method: 'guardian_key_signature',
      algorithm: 'ed25519',
      guardian_id: GUARDIAN.guardianId,
      public_key_pem: GUARDIAN.pem,
      public_key_sha256: GUARDIAN.sha256,
      signed_payload_sha256: receipt.submission_sha256,
      challenge: receipt.submission_sha256,
      signed_message: receipt.submission_sha256,
      challenge_sha256: sha256Hex(receipt.submission_sha256),
      signature_base64: sub.proof.signature,
      created_at: receipt.received_at,
      proof_scope: 'key_possession_only',
    });
    expect(checkPresenceProof(proof, chainOf(record).submission_sha256 as string).errors).toEqual([]);
    expect(chainOf(record)).toMatchObject({ record_type: 'guardian_application', submission_sha256: receipt.submission_sha256 });
    // The archive's words, with the applicant's oath quoted as the applicant's.
    expect(record.understanding_summary).toMatch(new RegExp(`^A guardian application: .*${GUARDIAN.sha256}.*${GUARDIAN.guardianId}.*grants no authority`));
    expect(record.echo).toBe(`The applicant's stewardship oath, in the applicant's own words: “${OATH}”`);
    await expectValidInArchive(t, pathAt(16));
    await expectArchiveClean(t);
    // The build's registry numbers it.
    const registry = deriveGuardianRegistry(await archivedRecords(t));
    expect(registry.guardians.map((g) => [g.registry_number, g.guardian_id, g.status])).toEqual([['00001', GUARDIAN.guardianId, 'active']]);
    await t.store.close();
  });

  it('a second application for a key the archive already registers is rejected, with what to do instead', async () => {
    const t = await setup();
    await applied(t);
    const before = t.files();
    const again = await t.accept(applicationOf(KEYS, { guardian_stewardship_oath: 'A second oath for the same key.' }));
    expect(again.code).toBe(1);
    expect(again.message).toMatch(
      new RegExp(`rejected .*: the key ${GUARDIAN.sha256} is already registered in the archive as guardian ${GUARDIAN.guardianId} \\(record ${idAt(16)}\\): one guardian id per key .*submit a guardian_retirement signed by that key, and apply again with a new key`),
    );
    expect(await t.store.get(again.receipt.receipt_id)).toMatchObject({ status: 'rejected' });
    expect(t.files()).toEqual(before);
    await t.store.close();
  });

  it('an application whose guardian id is not the signing key\'s is rejected, naming the id and hash the key gives', async () => {
    const t = await setup();
    const other = newGuardian();
    const sub = applicationOf(KEYS, { requested_guardian_identifier: other.key.guardianId, guardian_public_key_sha256: other.key.sha256 });
    const done = await t.accept(sub);
    expect(done.code).toBe(1);
    expect(done.message).toContain(`a key registers only itself; submit a new application with requested_guardian_identifier ${GUARDIAN.guardianId} and guardian_public_key_sha256 ${GUARDIAN.sha256}`);
    expect(existsSync(join(t.recordsDir, pathAt(16)))).toBe(false);
    await t.store.close();
  });
});

describe('accepting a guardian_retirement', () => {
  it('writes guardian_retirement, the presence proof and the link to the application, and leaves the application\'s bytes as they are', async () => {
    const t = await setup();
    await applied(t);
    const application = t.link(16);
    const before = t.raw(pathAt(16));
    const sub = retirementOf(application, KEYS, { retirement_status: 'possibly_compromised', reason: 'The key file was on a laptop that was stolen.' });
    const { code, receipt } = await t.accept(sub);
    expect(code, t.err.join('\n')).toBe(0);
    const record = t.read(pathAt(17));
    expect(record.guardian_retirement).toEqual({
      schema: 'service.guardian-retirement.v1',
      guardian_id: GUARDIAN.guardianId,
      retirement_status: 'possibly_compromised',
      statement: 'The key file was on a laptop that was stolen.',
      signed_by_guardian_key: true,
      boundaries: { not_authority: true, not_governance: true, not_verification_level: true, not_attestation: true, not_successor_reception: true, bitcoin_originals_prevail: true },
    });
    const proof = record.guardian_presence_proof as JsonObject;
    expect(proof).toMatchObject({ guardian_id: GUARDIAN.guardianId, signed_message: receipt.submission_sha256, signature_base64: sub.proof.signature, created_at: receipt.received_at });
    expect(checkPresenceProof(proof, receipt.submission_sha256).errors).toEqual([]);
    expect(chainOf(record).application).toEqual(application);
    expect(recordLinkOf(record, 'application')).toEqual(application);
    expect(record.understanding_summary).toMatch(new RegExp(`^A guardian retirement: guardian ${GUARDIAN.guardianId} reports its key possibly compromised, .*${idAt(16)}`));
    expect(record.echo).toBe('The guardian\'s reason, in the guardian\'s own words: “The key file was on a laptop that was stolen.”');
    expect(t.raw(pathAt(16)).equals(before)).toBe(true);
    await expectValidInArchive(t, pathAt(17));
    await expectArchiveClean(t);
    const registry = deriveGuardianRegistry(await archivedRecords(t));
    expect(registry.guardians[0]).toMatchObject({ guardian_id: GUARDIAN.guardianId, status: 'possibly_compromised' });
    await t.store.close();
  });

  it('is refused while the application is not archived, and stays pending until it is', async () => {
    const t = await setup();
    const early = await t.accept(retirementOf({ record_id: idAt(16), record_sha256: 'b'.repeat(64) }));
    expect(early.code).toBe(1);
    expect(early.message).toMatch(new RegExp(`the guardian application it names \\(${idAt(16)}\\) is not in the archive: if it is still pending in intake, accept it first, then this retirement; nothing was written`));
    expect(await t.store.get(early.receipt.receipt_id)).toMatchObject({ status: 'pending' });
    await t.store.close();
  });

  it('is rejected when the SHA-256 is not the application file\'s, and the message gives the right one', async () => {
    const t = await setup();
    await applied(t);
    const { record_sha256 } = t.link(16);
    const done = await t.accept(retirementOf({ record_id: idAt(16), record_sha256: 'b'.repeat(64) }));
    expect(done.code).toBe(1);
    expect(done.message).toContain(`it names ${idAt(16)} with SHA-256 ${'b'.repeat(64)}, but that file's SHA-256 is ${record_sha256}: submit the retirement again with the SHA-256 the public index lists for ${idAt(16)}, ${record_sha256}`);
    expect(await t.store.get(done.receipt.receipt_id)).toMatchObject({ status: 'rejected' });
    expect(existsSync(join(t.recordsDir, pathAt(17)))).toBe(false);
    await t.store.close();
  });

  it('is rejected when signed by another key than the registered one: only the registered key retires itself', async () => {
    const t = await setup();
    await applied(t);
    const before = t.raw(pathAt(16));
    const thief = newGuardian();
    const done = await t.accept(retirementOf(t.link(16), thief.keys, {}, KEYS));
    expect(done.code).toBe(1);
    expect(done.message).toContain(`the retirement is signed by another key (SHA-256 ${thief.key.sha256}) than the one ${idAt(16)} registered (SHA-256 ${GUARDIAN.sha256}): only the registered key retires itself`);
    expect(t.raw(pathAt(16)).equals(before)).toBe(true);
    await t.store.close();
  });

  it('is rejected when the application it names registers another guardian, or is no application', async () => {
    const t = await setup();
    const other = newGuardian();
    expect((await t.accept(applicationOf(other.keys))).code, t.err.join('\n')).toBe(0);
    const wrong = await t.accept(retirementOf(t.link(16)));
    expect(wrong.code).toBe(1);
    expect(wrong.message).toContain(`the application ${idAt(16)} registers ${other.key.guardianId} (key SHA-256 ${other.key.sha256}), not ${GUARDIAN.guardianId}`);
    expect(wrong.message).toMatch(/submit the retirement again naming the application of the key being retired/);

    expect((await t.accept(submission('echo'))).code, t.err.join('\n')).toBe(0);
    const echo = await t.accept(retirementOf(t.link(17)));
    expect(echo.code).toBe(1);
    expect(echo.message).toContain(`${idAt(17)} is not a guardian application`);
    await t.store.close();
  });
});

describe('accepting a classification_update', () => {
  const update = (target: { record_id: string; record_sha256: string }, previous: JsonObject, next: JsonObject) =>
    classificationUpdateOf(target, { previous_classification: previous, new_classification: next });

  it('writes the reclassifies link, leaves the target\'s file as it is, and the build applies it', async () => {
    const t = await setup();
    expect((await t.accept(submission('echo'))).code, t.err.join('\n')).toBe(0);
    const target = t.link(16);
    const before = t.raw(pathAt(16));
    const { code } = await t.accept(update(target, { independence_class: 'self_reported' }, { independence_class: 'human_solicited_agent_response' }));
    expect(code, t.err.join('\n')).toBe(0);
    const record = t.read(pathAt(17));
    expect(chainOf(record)).toMatchObject({ record_type: 'classification_update', reclassifies: target });
    expect(recordLinkOf(record, 'reclassifies')).toEqual(target);
    expect(record.guardian_registration).toBeUndefined();
    expect(record.guardian_presence_proof).toBeUndefined();
    expect(record.independence_class).toBe('self_reported'); // the update's own classification, not its proposal
    const c = content('classification_update').classification_update_content as JsonObject;
    expect(record.understanding_summary).toBe(
      `A classification update: a proposal to change the classification of record ${idAt(16)} from independence_class self_reported to independence_class human_solicited_agent_response. ` +
        'The record itself is not changed; the archive shows its effective classification, and counts follow it.',
    );
    expect(record.echo).toBe(
      `The proposer's reason, in the proposer's own words: “${c.classification_reason as string}”\nThe evidence or review basis, in the proposer's own words: “${c.evidence_or_review_basis as string}”`,
    );
    expect(t.raw(pathAt(16)).equals(before)).toBe(true);
    await expectValidInArchive(t, pathAt(17));
    await expectArchiveClean(t);
    const view = classificationViews(await archivedRecords(t)).get(idAt(16))!;
    expect(view.effective.independence_class).toBe('human_solicited_agent_response');
    expect(view.history.map((h) => [h.record_id, h.applied])).toEqual([[idAt(17), true]]);
    await t.store.close();
  });

  it('is rejected when its previous classification is not the target\'s effective one (a second update cannot overwrite the first unseen)', async () => {
    const t = await setup();
    await t.accept(submission('echo'));
    const target = t.link(16);
    expect((await t.accept(update(target, { independence_class: 'self_reported' }, { independence_class: 'human_solicited_agent_response' }))).code).toBe(0);
    const files = t.files();
    const stale = await t.accept(update(target, { independence_class: 'self_reported' }, { independence_class: 'maintainer_submitted' }));
    expect(stale.code).toBe(1);
    expect(stale.message).toContain(
      `its previous_classification is not the effective classification of ${idAt(16)} now: independence_class is "human_solicited_agent_response", not "self_reported"`,
    );
    expect(stale.message).toMatch(/submit the update again with previous_classification \{"independence_class":"human_solicited_agent_response"\}$/);
    expect(await t.store.get(stale.receipt.receipt_id)).toMatchObject({ status: 'rejected' });
    expect(t.files()).toEqual(files);
    // The same proposal on what the record is now is taken.
    expect((await t.accept(update(target, { independence_class: 'human_solicited_agent_response' }, { independence_class: 'maintainer_submitted' }))).code, t.err.join('\n')).toBe(0);
    await t.store.close();
  });

  it('is refused while the target is not archived, and rejected on a SHA-256 that is not its file\'s', async () => {
    const t = await setup();
    const early = await t.accept(update({ record_id: idAt(16), record_sha256: 'c'.repeat(64) }, { independence_class: 'self_reported' }, { independence_class: 'unknown' }));
    expect(early.code).toBe(1);
    expect(early.message).toMatch(/the record it names \(echo-2026-11-22-000016\) is not in the archive: if it is still pending in intake, accept it first, then this classification update/);
    expect(await t.store.get(early.receipt.receipt_id)).toMatchObject({ status: 'pending' });

    await t.accept(submission('echo'));
    const before = t.raw(pathAt(16));
    const wrong = await t.accept(update({ record_id: idAt(16), record_sha256: 'c'.repeat(64) }, { independence_class: 'self_reported' }, { do_not_count_as_attestation: true }));
    expect(wrong.code).toBe(1);
    expect(wrong.message).toContain(`but that file's SHA-256 is ${sha256Hex(before)}: submit the classification update again`);
    expect(t.raw(pathAt(16)).equals(before)).toBe(true);
    await t.store.close();
  });
});

describe('the intake mapping', () => {
  it('is what the archive writes: the accepted file is the mapped record as text', async () => {
    const t = await setup();
    await applied(t);
    expect(t.raw(pathAt(16)).toString('utf8')).toBe(recordFileText(t.read(pathAt(16))));
    await t.store.close();
  });
});
