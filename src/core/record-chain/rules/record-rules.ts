/**
 * The archive's record rules that apply unchanged to record-chain content, run on `record` with pointers moved
 * under /record (no rule is written twice: each is its sub-schema of the Echo v3 schema): spec 2.1 rule 1
 * (C0 ⇒ insufficient_context) and rule 8 (unknown agency claims no independence or attestation). Their ids stay the
 * archive's (cross/…).
 */
import type { Finding } from '../../diagnostics/diagnostic.ts';
import { c0Assessment } from '../../rules/cross/c0-assessment.ts';
import { unknownAgency } from '../../rules/cross/unknown-agency.ts';
import { checkSchemaRule } from '../../archive/check-record.ts';
import type { SchemaRule } from '../../rules/rule.ts';
import type { RecordType } from '../types.ts';

const APPLICABLE: Readonly<Record<RecordType, readonly SchemaRule[]>> = {
  echo: [c0Assessment, unknownAgency],
  verification: [unknownAgency],
  propagation: [],
  correction: [],
  context_insufficient_notice: [c0Assessment, unknownAgency],
  guardian_application: [],
  guardian_retirement: [],
  classification_update: [],
};

export function sharedRecordRules(recordType: RecordType): readonly SchemaRule[] {
  return APPLICABLE[recordType];
}

export function checkSharedRecordRules(recordType: RecordType, record: Record<string, unknown>): Finding[] {
  return sharedRecordRules(recordType).flatMap((rule) => checkSchemaRule(rule, record).map((f) => ({ ...f, pointer: '/record' + f.pointer })));
}
