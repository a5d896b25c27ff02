/**
 * The archive's record rules that apply unchanged to record-chain content, run on `record` with pointers moved
 * under /record (no rule is written twice): spec 2.1 rule 1 (C0 ⇒ insufficient_context) and rule 8 (unknown
 * agency claims no independence or attestation). Their ids stay the archive's (cross/…).
 */
import type { Finding } from '../../diagnostics/diagnostic.ts';
import { c0Assessment } from '../../rules/cross/c0-assessment.ts';
import { unknownAgency } from '../../rules/cross/unknown-agency.ts';
import type { ArchiveLookup, RecordRule } from '../../rules/rule.ts';
import type { RecordType } from '../types.ts';

const APPLICABLE: Readonly<Record<RecordType, readonly RecordRule[]>> = {
  echo: [c0Assessment, unknownAgency],
  verification: [unknownAgency],
  propagation: [],
  correction: [],
  context_insufficient_notice: [c0Assessment, unknownAgency],
};

const NO_ARCHIVE: ArchiveLookup = { recordAt: () => undefined };

export function sharedRecordRules(recordType: RecordType): readonly RecordRule[] {
  return APPLICABLE[recordType];
}

export function checkSharedRecordRules(recordType: RecordType, record: Record<string, unknown>): Finding[] {
  const file = { path: 'submission.json', id: 'submission' };
  return sharedRecordRules(recordType).flatMap((rule) =>
    rule.check({ record, file, archive: NO_ARCHIVE }).map((f) => ({ ...f, pointer: '/record' + f.pointer })),
  );
}
