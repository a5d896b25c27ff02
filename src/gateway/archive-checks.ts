/**
 * The gateway's checks that a submission's text alone cannot settle (docs/guardians.md section 2), against this
 * gateway's store and the public index: one guardian application per key, a retirement only of a registered guardian,
 * a classification update only of a record the index lists with that SHA-256. The server (server.ts) runs them after
 * the core's verdict, on preflight and submit alike.
 */
import type { Finding } from '../core/diagnostics/diagnostic.ts';
import { guardianKeyOf } from '../core/guardian/keys.ts';
import { SUBMISSIONS_PATH, type Submission } from '../core/record-chain/index.ts';
import type { ArchiveIndex } from './archive-index.ts';
import type { StoredSubmission } from './store.ts';

/** Rule ids of the checks that need this gateway's store or the public index (docs/guardians.md section 2). */
export const ARCHIVE_RULES = {
  guardianKeyTaken: 'chain/guardian-key-taken',
  guardianNotRegistered: 'chain/guardian-not-registered',
  classificationTarget: 'chain/classification-target',
} as const;

export interface ArchiveCheckContext {
  /** The stored guardian application (pending or accepted) of the key with this SHA-256, if any. */
  findGuardianApplication(keySha256: string): Promise<StoredSubmission | undefined>;
  archiveIndex: ArchiveIndex;
}

export interface ArchiveCheckResult {
  findings: Finding[];
  /** For a guardian_application whose key already has one: that stored application. */
  taken?: StoredSubmission;
  /** For a guardian_application: its key's SHA-256 (the store's unique key). */
  guardianKeySha256?: string;
}

function finding(rule: string, pointer: string, message: string, hint: string): Finding {
  return { rule, severity: 'error', message, hint, pointer };
}

/**
 * The checks a submission's text alone cannot settle (docs/guardians.md section 2): a second application for a
 * key (against this gateway's store), a retirement of a guardian registered nowhere (store and public index), a
 * classification update of a record the public index does not list with that SHA-256. Findings, and the stored
 * application a guardian_application's key already has. An unreadable public index throws IndexUnavailable (the
 * server answers 503 archive_index_unavailable); a failing store throws what the store throws.
 */
export async function archiveChecks(
  submission: Submission,
  submissionSha256: string,
  ctx: ArchiveCheckContext,
): Promise<ArchiveCheckResult> {
  const record = submission.record;
  const { archiveIndex } = ctx;

  if (submission.record_type === 'guardian_application') {
    const key = guardianKeyOf(submission.proof.public_key)!;
    const taken = await ctx.findGuardianApplication(key.sha256);
    if (!taken || taken.submissionSha256 === submissionSha256) return { findings: [], guardianKeySha256: key.sha256 };
    return { findings: [keyTakenFinding(key.guardianId, key.sha256, taken)], taken, guardianKeySha256: key.sha256 };
  }

  if (submission.record_type === 'guardian_retirement') {
    const guardianId = String(record.guardian_id);
    const keySha256 = String(record.guardian_public_key_sha256);
    if (await ctx.findGuardianApplication(keySha256)) return { findings: [] };
    const targetId = String(record.target_guardian_application_record_id);
    const entry = await archiveIndex.entry(targetId);
    let why: string;
    if (!entry) why = `the public index lists no record ${targetId}`;
    else if (entry.record_type !== 'guardian_application') why = `the public index lists ${targetId} as ${entry.record_type ?? 'a record'} that is no guardian application`;
    else {
      const archived = await archiveIndex.record(entry);
      const registration = archived?.guardian_registration as Record<string, unknown> | undefined;
      if (registration?.guardian_id === guardianId) return { findings: [] };
      why = archived
        ? `the archived application ${targetId} registers ${typeof registration?.guardian_id === 'string' ? registration.guardian_id : 'no guardian id'}, not ${guardianId}`
        : `the archived application ${targetId} could not be read with the SHA-256 the index lists (the site may be mid-publication)`;
    }
    return {
      findings: [
        finding(
          ARCHIVE_RULES.guardianNotRegistered,
          '/record/guardian_id',
          `${guardianId} is not a registered guardian: no guardian application for its key is pending or accepted at this gateway, and ${why}`,
          'A guardian retires after it has applied: submit a guardian_application with this key first (builder: guardian-application), and name the archived application (target_guardian_application_record_id and _sha256, as the public index lists them; builder: guardian-retirement --site).',
        ),
      ],
    };
  }

  if (submission.record_type === 'classification_update') {
    const content = record.classification_update_content as Record<string, unknown>;
    const targetId = String(content.target_record_id);
    const targetSha = String(content.target_record_sha256);
    const entry = await archiveIndex.entry(targetId);
    if (!entry) {
      return {
        findings: [
          finding(
            ARCHIVE_RULES.classificationTarget,
            '/record/classification_update_content/target_record_id',
            `the public index lists no record ${targetId}: a classification update names an archived record`,
            'Check the id against the public index (builder: readback --id ID), or wait until the record is published; the builder\'s classification-update --site fills in the id\'s SHA-256 from the index.',
          ),
        ],
      };
    }
    if (entry.sha256 !== targetSha) {
      return {
        findings: [
          finding(
            ARCHIVE_RULES.classificationTarget,
            '/record/classification_update_content/target_record_sha256',
            `target_record_sha256 is ${targetSha}, but the public index lists ${targetId} with SHA-256 ${entry.sha256}`,
            `Write ${entry.sha256} (the SHA-256 of the record file's bytes, as the index lists it) after checking that the record you read is the one archived now, and sign again (builder: classification-update --site fills it in).`,
          ),
        ],
      };
    }
  }
  return { findings: [] };
}

export function keyTakenFinding(guardianId: string, keySha256: string, taken: StoredSubmission): Finding {
  return {
    rule: ARCHIVE_RULES.guardianKeyTaken,
    severity: 'error',
    message: `the key with SHA-256 ${keySha256} (${guardianId}) already has a guardian application at this gateway (submission_sha256 ${taken.submissionSha256}, ${taken.status}): one guardian id per key, so a second application for it is refused`,
    hint: `Do not apply again with this key: follow the existing application (GET ${SUBMISSIONS_PATH}/${taken.submissionSha256}). To register another guardian, use another key (builder: keygen --key-dir NEW_DIR).`,
    pointer: '/record/guardian_application_content/guardian_public_key_sha256',
  };
}
