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
 * Plain-words reasons why `claim` exceeds `gate` ([] when it does not). A level or label that is not comparable
 * (unknown, legacy_unlabeled, or absent from the gate output) gives no reason here: the schema rules report an
 * unknown value, and a check cannot refuse what it cannot compare.
 */
export function claimExceedsGate(claim: StatedClaim, gate: GateAllowance, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): string[] {
  const reasons: string[] = [];
  const level = claim.verification_level;
  const allowed = gate.allowed_protocol_level;
  if ((compareLevels(level, allowed, rules) ?? 0) > 0) {
    reasons.push(`verification_level ${String(level)} is higher than the Claim Gate allows (${String(allowed)})`);
  }
  const label = claim.verification_scope_label;
  const width = scopeLabelWidth(label, rules);
  if (width !== undefined) {
    const allowedWidths = [gate.allowed_protocol_scope_label, gate.verification_scope_label].map((l) => scopeLabelWidth(l, rules)).filter((w): w is number => w !== undefined);
    const lowest = scopeLabelLowestLevel(label, rules);
    if (allowedWidths.length > 0 && width > Math.max(...allowedWidths)) {
      const named = [gate.allowed_protocol_scope_label, gate.verification_scope_label].filter((l) => typeof l === 'string');
      reasons.push(`verification_scope_label ${String(label)} is wider than the Claim Gate allows (${[...new Set(named)].join(' / ')})`);
    } else if (lowest === null || (lowest !== undefined && (compareLevels(lowest, allowed, rules) ?? 0) > 0)) {
      reasons.push(`verification_scope_label ${String(label)} needs ${lowest ?? 'a level no work may claim'}, more than the Claim Gate allows (${String(allowed)})`);
    }
  }
  return reasons;
}
