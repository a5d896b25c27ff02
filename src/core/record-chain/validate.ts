/**
 * Judging a record-chain submission: the one pipeline that the builder (`doctor`, and before writing), the gateway
 * (preflight and submit) and the archive share. Limits → strict JSON → schema (envelope and the record schema of
 * its record_type) → record-chain rules → the archive rules that apply to record content → positions.
 */
import { unpairedSurrogateAt } from '../canonical/jcs.ts';
import { isError, type Diagnostic, type Finding } from '../diagnostics/diagnostic.ts';
import { locateFindings } from '../diagnostics/locate.ts';
import { parseStrictJson } from '../json/strict-parse.ts';
import { asObject } from '../rules/rule.ts';
import { judgeSubmissionClaim, type SubmissionGateJudgement } from './claim-gate.ts';
import { submissionSha256 } from './envelope.ts';
import { checkBodySize, checkLimits, checkTextDepth, LIMIT_RULES, recordChainLimits, type RecordChainLimits } from './limits.ts';
import { chainRules } from './rules/index.ts';
import { historicalLevel } from './rules/historical-level.ts';
import { checkSharedRecordRules } from './rules/record-rules.ts';
import { chainSchemaFindings } from './schema-findings.ts';
import { isRecordType, SUBMISSION_SCHEMA_ID, type RecordType, type Submission } from './types.ts';

export interface CheckOptions {
  /** The limits to enforce (default: the limits policy document). */
  limits?: RecordChainLimits;
}

export interface SubmissionCheck {
  /** No error-severity finding. */
  valid: boolean;
  /** Findings without positions (pointers from the envelope's top level). */
  findings: Finding[];
  /** record_type when it is one of the five. */
  recordType?: RecordType;
  /** SHA-256 of the JCS canonical record, whenever `record` is an object (even when the submission is invalid). */
  submissionSha256?: string;
  /** For a verification record with an evidence_input: the Claim Gate's re-evaluation and its reasons. */
  claimGate?: SubmissionGateJudgement;
}

/** Every check on an already parsed submission value. */
export function checkSubmission(value: unknown, { limits = recordChainLimits() }: CheckOptions = {}): SubmissionCheck {
  const submission = asObject(value);
  if (!submission) {
    return {
      valid: false,
      findings: [
        {
          rule: 'json/not-object',
          severity: 'error',
          message: 'a submission is a JSON object { … }',
          hint: 'Build the submission with the record-chain builder.',
          pointer: '',
        },
      ],
    };
  }
  const recordType = isRecordType(submission.record_type) ? submission.record_type : undefined;
  const record = asObject(submission.record);
  const findings: Finding[] = [...checkLimits(submission, limits)];
  // Too deep to walk safely: the limits are the whole verdict (the schema and the rules recurse).
  if (findings.some((f) => f.rule === LIMIT_RULES.depth)) {
    return { valid: false, findings, ...(recordType ? { recordType } : {}) };
  }

  const schemaFindings = chainSchemaFindings(submission, SUBMISSION_SCHEMA_ID, 'record-chain submission');
  // The record's identity, taken once for every rule below; a record with an unpaired surrogate has no canonical
  // form, hence no identity (chain/content-hash says why).
  const recordSha256 = record && !unpairedSurrogateAt(record) ? submissionSha256(record) : undefined;
  const ctx = { submission, ...(recordType ? { recordType } : {}), ...(record ? { record } : {}), ...(recordSha256 ? { recordSha256 } : {}) };
  const ruleFindings = chainRules.flatMap((rule) => rule.check(ctx));
  // A historical-only level is reported once, by the rule that says why, not also as a bare enum mismatch.
  const historicalAt = new Set(ruleFindings.filter((f) => f.rule === historicalLevel.id).map((f) => f.pointer));
  findings.push(...schemaFindings.filter((f) => !(f.rule === 'schema/enum' && historicalAt.has(f.pointer))), ...ruleFindings);
  if (recordType && record) findings.push(...checkSharedRecordRules(recordType, record));
  const claimGate = recordType === 'verification' && record ? judgeSubmissionClaim(record) : undefined;

  return {
    valid: !findings.some(isError),
    findings,
    ...(recordType ? { recordType } : {}),
    ...(claimGate ? { claimGate } : {}),
    ...(recordSha256 ? { submissionSha256: recordSha256 } : {}),
  };
}

export interface SubmissionValidation {
  valid: boolean;
  /** The submission, when valid. */
  submission?: Submission;
  /** SHA-256 of the JCS canonical record, whenever the text holds an object whose record is an object. */
  submissionSha256?: string;
  recordType?: RecordType;
  /** For a verification record with an evidence_input: the Claim Gate's re-evaluation and its reasons. */
  claimGate?: SubmissionGateJudgement;
  /** Every problem, placed in the text (line, column), sorted by position. */
  diagnostics: Diagnostic[];
}

/**
 * The entry point for bytes or text as received (a file, a request body): the body-size and nesting-depth limits
 * first (nothing is parsed beyond them), then strict JSON (UTF-8, no BOM, no duplicate keys …), then checkSubmission.
 */
export function validateSubmissionText(input: Uint8Array | string, options: CheckOptions = {}): SubmissionValidation {
  const limits = options.limits ?? recordChainLimits();
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  const tooLarge = checkBodySize(size, limits);
  if (tooLarge) return { valid: false, diagnostics: locateFindings([tooLarge], undefined) };
  const tooDeep = checkTextDepth(typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8'), limits);
  if (tooDeep) return { valid: false, diagnostics: locateFindings([tooDeep], undefined) };

  const parsed = parseStrictJson(input);
  const findings: Finding[] = [...parsed.findings];
  let check: SubmissionCheck | undefined;
  if (parsed.isObject) {
    check = checkSubmission(parsed.value, { limits });
    findings.push(...check.findings);
  }
  const diagnostics = findings.length === 0 ? [] : locateFindings(findings, parsed.text);
  const valid = !diagnostics.some(isError);
  return {
    valid,
    ...(valid ? { submission: parsed.value as Submission } : {}),
    ...(check?.submissionSha256 ? { submissionSha256: check.submissionSha256 } : {}),
    ...(check?.recordType ? { recordType: check.recordType } : {}),
    ...(check?.claimGate ? { claimGate: check.claimGate } : {}),
    diagnostics,
  };
}
