/**
 * What a record-chain rule is: like the archive's record rules (src/core/rules/rule.ts), one module per rule with a
 * stable id, producing the core's Finding shape. Pointers are from the envelope's top level (e.g. /record/summary).
 */
import type { Finding } from '../../diagnostics/diagnostic.ts';
import type { JsonObject, RecordType } from '../types.ts';

export interface ChainContext {
  /** The parsed envelope (an object; its fields may still be of any type: the schema reports those). */
  submission: JsonObject;
  /** record_type when it is one of the five. */
  recordType?: RecordType;
  /** The record when it is an object. */
  record?: JsonObject;
  /**
   * The record's submission_sha256 when the caller has computed it (checkSubmission does, once for every rule: the
   * JCS form of a record is the dearest step of a check). Absent: the rule computes it, if the record has one.
   */
  recordSha256?: string;
}

export interface ChainRule {
  id: string;
  /** What the rule demands and where that comes from, in one line. */
  summary: string;
  check(ctx: ChainContext): Finding[];
}
