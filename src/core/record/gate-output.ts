/**
 * A record's `claim_gate_output` as the archive reads it. In an Echo v3 record the field is submitter-supplied and
 * loosely shaped (spec 2.1: optional status, allowed_protocol_level, required_downgrades; extra keys allowed; older
 * records write downgrades as from_level/to_level): this is the one reading of it that the validator rule, the
 * record page and the public index share, so they cannot disagree about what a record's gate output says.
 */
import { levelRank } from '../claim-gate/levels.ts';
import { asObject, asString } from '../rules/rule.ts';

export interface RecordGateDowngrade {
  from?: string;
  to?: string;
  reason?: string;
  /** The gate rule that required it, when the output names one. */
  rule?: string;
}

export interface RecordGateOutput {
  status?: string;
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
  const allowedLevel = asString(output.allowed_protocol_level);
  const allowedScopeLabel = asString(output.verification_scope_label) ?? asString(output.allowed_protocol_scope_label);
  return { ...(status ? { status } : {}), ...(allowedLevel ? { allowedLevel } : {}), ...(allowedScopeLabel ? { allowedScopeLabel } : {}), downgrades };
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

export type GateStatusClass = 'pass' | 'pass_with_downgrades' | 'fail' | 'other';

/**
 * A gate status read into one vocabulary, whatever its spelling (PASS, PASS_WITH_DOWNGRADE, passed_with_downgrades,
 * FAIL_WITH_REASONS …): the public index's facet and the record page's verdict.
 */
export function gateStatusClass(status: string): GateStatusClass {
  const s = status.trim().toLowerCase();
  if (/^fail/.test(s)) return 'fail';
  if (/^pass/.test(s)) return /downgrade/.test(s) ? 'pass_with_downgrades' : 'pass';
  return 'other';
}
