/**
 * A record's `claim_gate_output` as the archive reads it. In an Echo v3 record the field is submitter-supplied and
 * loosely shaped (spec 2.1: optional status, allowed_protocol_level, required_downgrades; extra keys allowed; older
 * records write downgrades as from_level/to_level): this is the one reading of it that the validator rule, the
 * record page and the public index share, so they cannot disagree about what a record's gate output says.
 */
import { levelRank } from '../claim-gate/levels.ts';
import type { ClaimGateStatus } from '../claim-gate/output.ts';
import { asObject, asString } from '../rules/rule.ts';
import { schemaDocument } from '../schema/documents.ts';

export interface RecordGateDowngrade {
  from?: string;
  to?: string;
  reason?: string;
  /** The gate rule that required it, when the output names one. */
  rule?: string;
}

export interface RecordGateOutput {
  /** The status as the output writes it (verbatim: a record's is the submitter's spelling). */
  status?: string;
  /**
   * The status as the gate output schema's enum spells it (PASS, PASS_WITH_DOWNGRADE, FAIL, FAIL_WITH_REASONS), read
   * from whatever spelling the output uses; absent when it has no status or one that is none of the gate's. The one
   * machine value of a gate verdict that the index, the record page and the builder publish.
   */
  gateStatus?: ClaimGateStatus;
  allowedLevel?: string;
  /** The gate's scope label (verification_scope_label or allowed_protocol_scope_label), when it gives one. */
  allowedScopeLabel?: string;
  downgrades: RecordGateDowngrade[];
}

/** The record's gate output, or undefined when the record has none (absent, null or not an object). */
export function recordGateOutput(record: Record<string, unknown>): RecordGateOutput | undefined {
  const output = asObject(record.claim_gate_output);
  if (!output) return undefined;
  const downgrades = (Array.isArray(output.required_downgrades) ? output.required_downgrades : []).map((d): RecordGateDowngrade => {
    const o = asObject(d) ?? {};
    const from = asString(o.from) ?? asString(o.from_level);
    const to = asString(o.to) ?? asString(o.to_level);
    const reason = asString(o.reason);
    const rule = asString(o.rule);
    return { ...(from ? { from } : {}), ...(to ? { to } : {}), ...(reason ? { reason } : {}), ...(rule ? { rule } : {}) };
  });
  const status = asString(output.status);
  const gateStatus = status === undefined ? undefined : claimGateStatusOf(status);
  const allowedLevel = asString(output.allowed_protocol_level);
  const allowedScopeLabel = asString(output.verification_scope_label) ?? asString(output.allowed_protocol_scope_label);
  return {
    ...(status ? { status } : {}),
    ...(gateStatus ? { gateStatus } : {}),
    ...(allowedLevel ? { allowedLevel } : {}),
    ...(allowedScopeLabel ? { allowedScopeLabel } : {}),
    downgrades,
  };
}

/**
 * The allowed level when it is a protocol level (none, V0 … V8), so that a claim can be compared with it; else
 * undefined. The public index publishes only such a level, and cross/claim-gate-level holds a claim only to one.
 */
export function comparableAllowedLevel(output: RecordGateOutput | undefined): string | undefined {
  const allowed = output?.allowedLevel;
  return allowed !== undefined && levelRank(allowed) !== undefined ? allowed : undefined;
}

/** One downgrade in words: "V3 → V2: <reason> (rule id)". */
function downgradeText(d: RecordGateDowngrade): string {
  const step = d.from || d.to ? `${d.from ?? '?'} → ${d.to ?? '?'}` : 'downgrade';
  return `${step}: ${d.reason ?? 'no reason given'}${d.rule ? ` (${d.rule})` : ''}`;
}

/** The downgrades as one sentence for a diagnostic, or '' when there are none. */
export function downgradesSentence(output: RecordGateOutput): string {
  return output.downgrades.length === 0 ? '' : ` The gate's downgrades: ${output.downgrades.map(downgradeText).join('; ')}.`;
}

/** The gate output schema's status enum (/api/claim-gate-output-schema.v1.json), in its order: the one spelling of a verdict. */
export const CLAIM_GATE_STATUSES: readonly ClaimGateStatus[] = (() => {
  const properties = schemaDocument('/api/claim-gate-output-schema.v1.json')?.properties as { status?: { enum?: unknown } } | undefined;
  const values = properties?.status?.enum;
  if (!Array.isArray(values) || values.length === 0) throw new Error('the claim gate output schema names no status enum');
  return values as ClaimGateStatus[];
})();

/**
 * A gate status, whatever its spelling (PASS, PASS_WITH_DOWNGRADE, passed_with_downgrades, pass with downgrades,
 * FAIL_WITH_REASONS, failed …), as the gate output schema's enum spells it; undefined for a status that is none of
 * the gate's (a record's claim_gate_output is the submitter's to write). The public index's claim_gate_status and the
 * record page's machine value.
 */
export function claimGateStatusOf(status: string): ClaimGateStatus | undefined {
  const s = status.trim().toUpperCase().replace(/[\s-]+/g, '_');
  const exact = CLAIM_GATE_STATUSES.find((v) => v === s);
  if (exact) return exact;
  if (/^FAIL/.test(s)) return /REASON/.test(s) ? 'FAIL_WITH_REASONS' : 'FAIL';
  if (/^PASS/.test(s)) return /DOWNGRADE/.test(s) ? 'PASS_WITH_DOWNGRADE' : 'PASS';
  return undefined;
}
