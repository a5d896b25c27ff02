/**
 * Whether a stated claim (a record's verification_level and verification_scope_label, or a submission's
 * legacy_v_level) exceeds what a claim gate output allows. One function for the builder, the gateway and the
 * archive validator, so they refuse the same claims with the same words.
 */
import { compareLevels, scopeLabelLowestLevel, scopeLabelWidth } from './levels.ts';
import { PUBLISHED_CLAIM_GATE_RULES, type ClaimGateRules } from './rules-document.ts';

export interface StatedClaim {
  verification_level?: unknown;
  verification_scope_label?: unknown;
}

/** The gate output fields the check reads (a record's claim_gate_output may carry only some). */
export interface GateAllowance {
  allowed_protocol_level?: unknown;
  allowed_protocol_scope_label?: unknown;
  verification_scope_label?: unknown;
}

/**
 * The levels at which spec 2.1 rules 4 and 5 decide which verification_scope_label a record may carry (DECISIONS 20):
 * there a gate output limits the level only, never the label. The label lists themselves are those rules'
 * (cross/v2-scope-label, cross/v3-scope-label), not repeated here.
 */
const LEVELS_WHOSE_LABEL_THE_SPEC_DECIDES: readonly string[] = ['V2', 'V3'];

/** Whether a gate output may judge the scope label of a claim at `level` (false at V2 and V3: DECISIONS 20). */
export function gateJudgesScopeLabelAt(level: unknown): boolean {
  return !(typeof level === 'string' && LEVELS_WHOSE_LABEL_THE_SPEC_DECIDES.includes(level));
}

/** Plain-words reason why the claim's verification_level is higher than the gate allows ([] when it is not). */
export function levelExceedsGate(claim: StatedClaim, gate: GateAllowance, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): string[] {
  const level = claim.verification_level;
  const allowed = gate.allowed_protocol_level;
  return (compareLevels(level, allowed, rules) ?? 0) > 0 ? [`verification_level ${String(level)} is higher than the Claim Gate allows (${String(allowed)})`] : [];
}

/**
 * Plain-words reason why the claim's verification_scope_label says more than the gate allows: wider than the gate's
 * own label, or a label that needs a higher level than the gate allows. [] at V2 and V3, where spec 2.1 rules 4 and 5
 * decide the label and the gate limits only the level (DECISIONS 20); [] for a label that is not comparable.
 */
export function scopeLabelExceedsGate(claim: StatedClaim, gate: GateAllowance, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): string[] {
  if (!gateJudgesScopeLabelAt(claim.verification_level)) return [];
  const label = claim.verification_scope_label;
  const width = scopeLabelWidth(label, rules);
  if (width === undefined) return [];
  const allowed = gate.allowed_protocol_level;
  const allowedWidths = [gate.allowed_protocol_scope_label, gate.verification_scope_label].map((l) => scopeLabelWidth(l, rules)).filter((w): w is number => w !== undefined);
  const lowest = scopeLabelLowestLevel(label, rules);
  if (allowedWidths.length > 0 && width > Math.max(...allowedWidths)) {
    const named = [gate.allowed_protocol_scope_label, gate.verification_scope_label].filter((l) => typeof l === 'string');
    return [`verification_scope_label ${String(label)} is wider than the Claim Gate allows (${[...new Set(named)].join(' / ')})`];
  }
  if (lowest === null || (lowest !== undefined && (compareLevels(lowest, allowed, rules) ?? 0) > 0)) {
    return [`verification_scope_label ${String(label)} needs ${lowest ?? 'a level no work may claim'}, more than the Claim Gate allows (${String(allowed)})`];
  }
  return [];
}

/**
 * Plain-words reasons why `claim` exceeds `gate` ([] when it does not): the level, then the scope label. A level or
 * label that is not comparable (unknown, legacy_unlabeled, or absent from the gate output) gives no reason here: the
 * schema rules report an unknown value, and a check cannot refuse what it cannot compare. At V2 and V3 only the level
 * is compared (DECISIONS 20).
 */
export function claimExceedsGate(claim: StatedClaim, gate: GateAllowance, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): string[] {
  return [...levelExceedsGate(claim, gate, rules), ...scopeLabelExceedsGate(claim, gate, rules)];
}
