/**
 * Accepting a correction (DECISIONS 16, 10): find the archived record it names, check that the same key signed
 * both, and make the target's new content — archive_status `superseded` with a superseded_reason naming the
 * correction, and for `withdraws_record` also verification_status `invalidated` (withdrawn: it stays in the archive
 * and the index, shown as withdrawn, left out of counts). The caller writes both files in one commit.
 *
 * Two kinds of "no": `CorrectionRefused` when the accept cannot happen yet (the target is not archived: it may
 * still be pending), and `CorrectionRejected` when it never can (another key, a target that is already superseded
 * or withdrawn, a target whose signature cannot be checked): intake records that as the submission's rejection.
 */
import type { LoadedArchive, LoadedFile } from '../core/archive/load-archive.ts';
import { recordIdOf } from '../core/archive/paths.ts';
import { submissionSha256Of } from '../core/publish/public-index.ts';
import type { JsonObject, Submission } from '../core/record-chain/index.ts';
import { CORRECTION_EFFECTS, signingKeyOf, type CorrectionEffect, type CorrectionLink } from '../core/record/record-chain-fields.ts';
import { isWithdrawn } from '../core/record/status.ts';
import type { AcceptPlan } from './archive-writer.ts';
import { planKeyRecord } from './guardian-binding.ts';
import { AcceptRefused, AcceptRejected } from './refusals.ts';
import { toEchoRecord, type IntakeReference } from './to-echo-record.ts';

export class CorrectionRefused extends AcceptRefused {}
export class CorrectionRejected extends AcceptRejected {}

export interface CorrectionPlan {
  link: CorrectionLink;
  target: { path: string; record: JsonObject };
}

const obj = (v: unknown): JsonObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);

function describe(target: { record_id?: string; submission_sha256?: string }): string {
  return [target.record_id && `record ${target.record_id}`, target.submission_sha256 && `submission_sha256 ${target.submission_sha256}`].filter(Boolean).join(' / ');
}

/** The archived record a correction names (by id, by submission_sha256, or both, which must then agree). */
function findTarget(archive: LoadedArchive, target: { record_id?: string; submission_sha256?: string }): LoadedFile {
  const byId = target.record_id === undefined ? undefined : archive.files.find((f) => f.record && recordIdOf(f.path) === target.record_id);
  const bySha = target.submission_sha256 === undefined ? undefined : archive.files.find((f) => f.record && submissionSha256Of(f.record) === target.submission_sha256);
  if (target.record_id !== undefined && target.submission_sha256 !== undefined && byId !== bySha) {
    throw new CorrectionRejected(
      `the correction names ${describe(target)}, which are not the same archived record: name the record by one of them, or by both of the same record`,
    );
  }
  const found = byId ?? bySha;
  if (!found) {
    throw new CorrectionRefused(
      `the record it corrects (${describe(target)}) is not in the archive: if it is still pending in intake, accept it first, then this correction`,
    );
  }
  return found;
}

/** Plans the acceptance of `submission` (a correction) as the archive record `correctionPath`. */
export function planCorrection(archive: LoadedArchive, submission: Submission, correctionPath: string, correctionSha256: string): CorrectionPlan {
  const content = submission.record;
  const named = obj(content.target) ?? {};
  const target = {
    ...(typeof named.record_id === 'string' ? { record_id: named.record_id } : {}),
    ...(typeof named.submission_sha256 === 'string' ? { submission_sha256: named.submission_sha256 } : {}),
  };
  const effect = content.effect as CorrectionEffect;
  if (!(CORRECTION_EFFECTS as readonly string[]).includes(effect)) throw new CorrectionRejected(`unknown correction effect ${JSON.stringify(content.effect)}`);
  const file = findTarget(archive, target);
  const record = file.record!;
  const targetId = recordIdOf(file.path);
  const correctionId = recordIdOf(correctionPath);

  const key = signingKeyOf(record);
  if (key === undefined) {
    throw new CorrectionRejected(
      `the record it corrects, ${targetId}, has no record-chain signature that holds, so it cannot be shown that the same key signed both; only a record-chain record can be corrected through intake (DECISIONS 16)`,
    );
  }
  if (key !== submission.proof.public_key) {
    throw new CorrectionRejected(
      `the correction is signed by another key (${submission.proof.public_key}) than the record it corrects, ${targetId} (${key}): only the key that signed a record can correct it (DECISIONS 16); submit a record of your own instead`,
    );
  }
  if (record.archive_status === 'superseded') {
    throw new CorrectionRejected(`the record it corrects, ${targetId}, is already superseded (${String(record.superseded_reason)}): correct the newest record instead`);
  }
  if (isWithdrawn(record)) throw new CorrectionRejected(`the record it corrects, ${targetId}, is already withdrawn`);

  const withdraws = effect === 'withdraws_record';
  const reason =
    `Superseded by ${correctionId}, a record-chain correction (submission_sha256 ${correctionSha256}) signed by the same key as this record` +
    (withdraws ? '; it withdraws this record.' : '; it corrects a statement of this record.');
  const updated: JsonObject = { ...record, archive_status: 'superseded', superseded_reason: reason };
  if (withdraws) updated.verification_status = 'invalidated';
  const targetSha = submissionSha256Of(record);
  return {
    link: { record_id: targetId, ...(targetSha ? { submission_sha256: targetSha } : {}), effect },
    target: { path: file.path, record: updated },
  };
}

/**
 * What accepting `submission` writes (writeArchiveRecord's compose step): its Echo v3 record, and for a correction
 * also the record it supersedes, planned against the archive as it is when the commit is made. A guardian_application,
 * guardian_retirement or classification_update is checked against that archive first (guardian-binding.ts).
 */
export function composeAccept(submission: Submission, reference: IntakeReference): (archive: LoadedArchive, path: string) => AcceptPlan {
  return (archive, path) => {
    // The three record types about keys and trust are bound to the archive; their targets' files are never rewritten.
    if (submission.record_type !== 'correction') return { record: toEchoRecord(submission, { ...reference, ...planKeyRecord(archive, submission) }) };
    const plan = planCorrection(archive, submission, path, reference.submissionSha256);
    return { record: toEchoRecord(submission, { ...reference, corrects: plan.link }), updates: [plan.target] };
  };
}
