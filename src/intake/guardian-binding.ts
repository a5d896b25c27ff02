/**
 * Binding the three record types about keys and trust to the archive at accept (docs/guardians.md sections 2–3,
 * DECISIONS 24–26). The gateway checks the same against the public index, which may be stale; the archive itself
 * is the authority on what is archived, so intake checks again here, on the archive as it is when the commit is made:
 *
 *   guardian_application   its id and key SHA-256 are the signing key's, and no record in force in the archive already
 *                          registers that key (one guardian id per key: the core's registry says which are registered);
 *   guardian_retirement    the application it names is archived, its file's bytes hash to the SHA-256 it gives, it
 *                          is a guardian application in force that registers the same guardian id and key, and the
 *                          retirement is signed by that key (only the registered key retires itself);
 *   classification_update  the record it names is archived with the SHA-256 it gives, and its previous_classification
 *                          is that record's effective classification now (the core's classificationViews, in the public
 *                          index's order), so that two updates cannot silently overwrite each other.
 *
 * A named record that is not archived is refused (it may still be pending: accept it first); anything else is
 * rejected with what to change. Nothing is ever written into the named record's file (DECISIONS 26).
 */
import { isDeepStrictEqual } from 'node:util';
import type { LoadedArchive, LoadedFile } from '../core/archive/load-archive.ts';
import { archiveDateOf, recordIdOf } from '../core/archive/paths.ts';
import { sha256Hex } from '../core/crypto/sha256.ts';
import { guardianKeyOf } from '../core/guardian/keys.ts';
import { deriveGuardianRegistry, inForce } from '../core/guardian/registry.ts';
import { byArchivePath } from '../core/publish/records.ts';
import type { JsonObject, Submission } from '../core/record-chain/index.ts';
import { classificationOf, classificationViews, CLASSIFICATION_FIELDS, type ClassifiedRecord } from '../core/record/classification.ts';
import { recordTypeOf, signingKeyOf } from '../core/record/record-chain-fields.ts';
import type { KeyRecordLinks, RecordLink } from './guardian-fields.ts';
import { AcceptRefused, AcceptRejected } from './refusals.ts';


const obj = (v: unknown): JsonObject => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The archived records with their file's bytes, in the public index's order (by archive path). */
function archivedRecords(archive: LoadedArchive): Array<LoadedFile & { record: JsonObject; bytes: Buffer }> {
  return byArchivePath(archive.files.filter((f): f is LoadedFile & { record: JsonObject; bytes: Buffer } => f.record !== undefined && f.bytes !== undefined));
}

/** The archived record with this id and its file's SHA-256; refused while it is not archived, rejected on another hash. */
function boundTarget(archive: LoadedArchive, id: string, sha256: string, what: string, self: string): { file: LoadedFile & { record: JsonObject }; link: RecordLink } {
  const file = archivedRecords(archive).find((f) => recordIdOf(f.path) === id);
  if (!file) {
    throw new AcceptRefused(`the ${what} it names (${id}) is not in the archive: if it is still pending in intake, accept it first, then this ${self}`);
  }
  const actual = sha256Hex(file.bytes);
  if (actual !== sha256) {
    throw new AcceptRejected(
      `it names ${id} with SHA-256 ${sha256}, but that file's SHA-256 is ${actual}: submit the ${self} again with the SHA-256 the public index lists for ${id}, ${actual}`,
    );
  }
  return { file, link: { record_id: id, record_sha256: actual } };
}

function planApplication(archive: LoadedArchive, submission: Submission): KeyRecordLinks {
  // That the application registers the key that signed it is the core's chain/guardian-id, which accept runs on the
  // stored submission before this (src/intake/cli.ts): only the archive's side is checked here.
  const key = guardianKeyOf(submission.proof.public_key);
  if (!key) throw new AcceptRejected('the application is not signed by an Ed25519 key, so it registers no guardian key');
  const registry = deriveGuardianRegistry(archivedRecords(archive).map((f) => ({ id: recordIdOf(f.path), record: f.record })));
  const existing = registry.guardians.find((g) => g.public_key_sha256 === key.sha256);
  if (existing) {
    throw new AcceptRejected(
      `the key ${key.sha256} is already registered in the archive as guardian ${existing.guardian_id} (record ${existing.history[0]!.record_id}): one guardian id per key (DECISIONS 25); ` +
        'to stop using it, submit a guardian_retirement signed by that key, and apply again with a new key',
    );
  }
  return {};
}

function planRetirement(archive: LoadedArchive, submission: Submission): KeyRecordLinks {
  const content = submission.record;
  const guardianId = str(content.guardian_id);
  const keySha = str(content.guardian_public_key_sha256);
  const targetId = str(content.target_guardian_application_record_id);
  const { file, link } = boundTarget(archive, targetId, str(content.target_guardian_application_record_sha256), 'guardian application', 'retirement');
  const registration = obj(file.record.guardian_registration);
  if (recordTypeOf(file.record) !== 'guardian_application' || Object.keys(registration).length === 0) {
    throw new AcceptRejected(`${targetId} is not a guardian application: submit the retirement again naming the archived guardian_application that registered ${guardianId}`);
  }
  if (!inForce(file.record)) {
    throw new AcceptRejected(`the guardian application ${targetId} is not in force (archive_status ${str(file.record.archive_status)}), so it registers no guardian: there is nothing to retire`);
  }
  if (registration.guardian_id !== guardianId || registration.public_key_sha256 !== keySha) {
    throw new AcceptRejected(
      `the application ${targetId} registers ${str(registration.guardian_id)} (key SHA-256 ${str(registration.public_key_sha256)}), not ${guardianId} (key SHA-256 ${keySha}): ` +
        'submit the retirement again naming the application of the key being retired',
    );
  }
  const registeredBy = signingKeyOf(file.record);
  if (registeredBy === undefined || guardianKeyOf(registeredBy)?.sha256 !== keySha) {
    throw new AcceptRejected(`the application ${targetId} is not signed by the key it registers, so that key's registration cannot be shown; there is nothing to retire`);
  }
  // That the retirement is signed by the key it names is the core's chain/guardian-retirement-key, run before this.
  return { application: link };
}

function planClassificationUpdate(archive: LoadedArchive, submission: Submission): KeyRecordLinks {
  const content = obj(submission.record.classification_update_content);
  const targetId = str(content.target_record_id);
  const { file, link } = boundTarget(archive, targetId, str(content.target_record_sha256), 'record', 'classification update');
  const ordered: ClassifiedRecord[] = archivedRecords(archive).map((f) => {
    const id = recordIdOf(f.path);
    return { id, sha256: sha256Hex(f.bytes), archiveDate: archiveDateOf(id) ?? null, record: f.record };
  });
  const effective = classificationViews(ordered).get(targetId)?.effective ?? classificationOf(file.record);
  const previous = classificationOf(obj(content.previous_classification));
  const stale = CLASSIFICATION_FIELDS.filter((f) => f in previous && !isDeepStrictEqual(previous[f], effective[f]));
  if (stale.length > 0) {
    const proposed = classificationOf(obj(content.new_classification));
    const fields = CLASSIFICATION_FIELDS.filter((f) => (f in previous || f in proposed) && effective[f] !== undefined);
    const current = Object.fromEntries(fields.map((f) => [f, effective[f]]));
    const differs = stale.map((f) => `${f} is ${effective[f] === undefined ? 'not set' : JSON.stringify(effective[f])}, not ${JSON.stringify(previous[f])}`);
    throw new AcceptRejected(
      `its previous_classification is not the effective classification of ${targetId} now: ${differs.join('; ')} ` +
        '(another update may have been accepted since): read the record\'s classification again, and submit the update again with previous_classification ' +
        JSON.stringify(current),
    );
  }
  return { reclassifies: link };
}

/**
 * Checks a guardian_application, guardian_retirement or classification_update against the archive as it is and says
 * what its accepted record links to; throws AcceptRefused or AcceptRejected. Other record types link to nothing.
 */
export function planKeyRecord(archive: LoadedArchive, submission: Submission): KeyRecordLinks {
  switch (submission.record_type) {
    case 'guardian_application':
      return planApplication(archive, submission);
    case 'guardian_retirement':
      return planRetirement(archive, submission);
    case 'classification_update':
      return planClassificationUpdate(archive, submission);
    default:
      return {};
  }
}
