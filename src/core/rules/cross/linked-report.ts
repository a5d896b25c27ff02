import { resolveArchiveLink } from '../../archive/paths.ts';
import { asObject, asString, violation, type RecordRule } from '../rule.ts';

/** DECISIONS 8: the linked report is a record of this archive, and its scope label is the echo's. */
export const linkedReport: RecordRule = {
  id: 'cross/linked-report',
  summary:
    "linked_verification_report.path names a record of the archive whose verification_scope_label equals this record's (DECISIONS 8).",
  check({ record, file: self, archive }) {
    const link = asString(asObject(record.linked_verification_report)?.path);
    if (link === undefined) return [];
    const pointer = '/linked_verification_report/path';
    const target = resolveArchiveLink(link);
    const file = target === undefined ? undefined : archive.recordAt(target);
    if (target === undefined || !target.endsWith('.json')) {
      return [
        violation(
          this.id,
          pointer,
          `the linked report "${link}" is not a path to a .json file inside the archive`,
          'Write the path of the report record from the archive root, e.g. "/verification-reports/v3/<report>.json".',
        ),
      ];
    }
    if (!file) {
      return [
        violation(
          this.id,
          pointer,
          `the linked report "${link}" does not exist in the archive`,
          'Add the report record at that path in the same pull request, or correct the path (it is relative to the archive root).',
        ),
      ];
    }
    if (file.path === self.path) {
      return [
        violation(
          this.id,
          pointer,
          `the linked report "${link}" is this record itself`,
          'Link the separate verification report record that this echo summarises.',
        ),
      ];
    }
    if (!file.record) {
      return [
        violation(
          this.id,
          pointer,
          `the linked report "${link}" cannot be read (it is not a JSON object), so the label cannot be matched`,
          `Fix the JSON of ${file.path} first; its own diagnostics say how.`,
        ),
      ];
    }
    const reportLabel = asString(file.record.verification_scope_label);
    if (reportLabel === undefined) {
      return [
        violation(
          this.id,
          pointer,
          `the linked report "${link}" has no verification_scope_label, so the label cannot be matched`,
          `Add the verification_scope_label to ${file.path} (the label its evidence supports), then use the same label here.`,
        ),
      ];
    }
    const ownLabel = asString(record.verification_scope_label);
    if (ownLabel === reportLabel) return [];
    return [
      violation(
        this.id,
        ownLabel === undefined ? '' : '/verification_scope_label',
        ownLabel === undefined
          ? `the linked report "${link}" has verification_scope_label "${reportLabel}" but this record has none`
          : `verification_scope_label "${ownLabel}" differs from the linked report's "${reportLabel}"`,
        `An echo cannot claim a scope its report does not: set verification_scope_label to "${reportLabel}".`,
      ),
    ];
  },
};
