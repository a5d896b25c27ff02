/**
 * Our rule for what a change may do to records already archived (`validate --changed`): a record's id is its file
 * name and the site publishes it at permanent URLs (/records/<id>/ and /records/<id>.json) that people and agents
 * cite and that `readback` checks, so a record is never deleted or renamed. It stays, and is marked instead:
 * superseded (archive_status, with superseded_reason) or withdrawn (verification_status "invalidated", DECISIONS 10).
 * Moving a file to another folder keeps its id and URLs, but links by path (linked_verification_report) name the
 * old place: a warning.
 */
import type { Finding } from '../../diagnostics/diagnostic.ts';
import { recordIdOf } from '../../archive/paths.ts';

export interface RemovedRecord {
  /** Path from the archive root of the record as it was. */
  path: string;
  /** Where the change moved it (path from the archive root), when it was renamed or moved rather than deleted. */
  renamedTo?: string;
}

export const REMOVED_RECORD_RULE = 'change/removed-record';
export const MOVED_RECORD_RULE = 'change/moved-record';

const MARK_INSTEAD =
  'To retire a record, keep the file and mark it: archive_status "superseded" with a superseded_reason naming what replaces it, or verification_status "invalidated" to withdraw it (it stays listed, shown as withdrawn, and is left out of counts).';

export function removedRecordFindings({ path, renamedTo }: RemovedRecord): Finding[] {
  const id = recordIdOf(path);
  const urls = `/records/${id}/ and /records/${id}.json`;
  if (renamedTo === undefined) {
    return [
      {
        rule: REMOVED_RECORD_RULE,
        severity: 'error',
        pointer: '',
        message: `the record ${id} was deleted: the archive publishes it at permanent URLs (${urls}) that others cite, and deleting the file breaks them`,
        hint: `Restore ${path}. ${MARK_INSTEAD}`,
      },
    ];
  }
  if (recordIdOf(renamedTo) === id) {
    return [
      {
        rule: MOVED_RECORD_RULE,
        severity: 'warning',
        pointer: '',
        message: `the record ${id} moved to ${renamedTo}: its id and URLs stay, but links to it by path (linked_verification_report) name ${path}`,
        hint: `Move it back unless you also updated every linked_verification_report path that names ${path}.`,
      },
    ];
  }
  return [
    {
      rule: REMOVED_RECORD_RULE,
      severity: 'error',
      pointer: '',
      message: `the record ${id} was renamed to ${renamedTo}: a record's id is its file name, so renaming it breaks its permanent URLs (${urls})`,
      hint: `Rename it back to ${path}; to correct a record, edit it in place or add a new record and mark this one superseded. ${MARK_INSTEAD}`,
    },
  ];
}
