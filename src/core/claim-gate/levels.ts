/**
 * Protocol levels (V0 … V8), V2/V3 scope labels and component-level ladders (B, D, T, C, N, P): their order and
 * how to compare them. The orders are read from the published rules document (rules-document.ts), never restated
 * here, so the validator, the gate and the published rules agree. Every helper takes the rules document as an
 * optional last argument (the published one by default) so a test can run a changed document.
 */
import { PUBLISHED_CLAIM_GATE_RULES, type ClaimGateRules } from './rules-document.ts';

/** A protocol level as the record field `verification_level` and the gate output carry it. */
export type ProtocolLevel = 'V0' | 'V1' | 'V2' | 'V3' | 'V4' | 'V4+' | 'V5' | 'V6' | 'V7' | 'V8';
/** The record field also has "none", below V0. */
export type RecordVerificationLevel = 'none' | ProtocolLevel;

/** Protocol levels, lowest first. */
export function protocolLevels(rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): readonly ProtocolLevel[] {
  return rules.protocol_levels.order as ProtocolLevel[];
}

export function isProtocolLevel(value: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): value is ProtocolLevel {
  return typeof value === 'string' && rules.protocol_levels.order.includes(value);
}

/**
 * Rank of a level: "none" is -1, V0 is 0, … V8 is 9. Undefined for anything else (not a level: callers decide
 * whether that is an error, never guess a rank for it).
 */
export function levelRank(level: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): number | undefined {
  if (level === rules.protocol_levels.below_all) return -1;
  if (typeof level !== 'string') return undefined;
  const i = rules.protocol_levels.order.indexOf(level);
  return i < 0 ? undefined : i;
}

/** Negative when a is lower than b, 0 when equal, positive when higher; undefined when either is not a level. */
export function compareLevels(a: unknown, b: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): number | undefined {
  const ra = levelRank(a, rules);
  const rb = levelRank(b, rules);
  return ra === undefined || rb === undefined ? undefined : ra - rb;
}

/** V4+, V6, V7, V8 (DECISIONS 11 and 17): valid in old records, never allowed for new work. */
export function isHistoricalOnly(level: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): boolean {
  return typeof level === 'string' && rules.protocol_levels.historical_only_for_new_work.includes(level);
}

/** The highest level the gate allows for new work (V5). */
export function highestLevelForNewWork(rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): ProtocolLevel {
  return rules.protocol_levels.highest_for_new_work as ProtocolLevel;
}

/**
 * The highest level allowed for new work at or below `level`: V4+ → V4, V6/V7/V8 → V5, others unchanged.
 * Historical-only levels between are skipped.
 */
export function newWorkCeiling(level: ProtocolLevel, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): ProtocolLevel {
  const order = protocolLevels(rules);
  const cap = levelRank(highestLevelForNewWork(rules), rules) ?? 0;
  for (let i = Math.min(levelRank(level, rules) ?? 0, cap); i >= 0; i--) {
    const candidate = order[i]!;
    if (!isHistoricalOnly(candidate, rules)) return candidate;
  }
  return order[0]!;
}

// --- scope labels -------------------------------------------------------------------------------------------

/** The scope-qualified labels of a level, narrowest first (V2 → V2-minimal, V2-strong); [] for other levels. */
export function protocolScopeLabels(level: string, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): readonly string[] {
  return rules.scope_labels.protocol_scope_labels[level] ?? [];
}

/**
 * How wide a scope label is (how much it says was covered): read_only_orientation 0 … future_capability_reserved
 * 12; V2-minimal and single_reference_check are as wide as each other. Undefined for labels that are not
 * comparable (legacy_unlabeled) or unknown.
 */
export function scopeLabelWidth(label: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): number | undefined {
  if (typeof label !== 'string') return undefined;
  return rules.scope_labels.widths.find((w) => w.label === label)?.width;
}

/** The lowest protocol level that may carry a scope label (null: none may; undefined: unknown label). */
export function scopeLabelLowestLevel(label: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): ProtocolLevel | null | undefined {
  if (typeof label !== 'string') return undefined;
  const entry = rules.scope_labels.widths.find((w) => w.label === label);
  return entry === undefined ? undefined : (entry.lowest_level as ProtocolLevel | null);
}

// --- component-level ladders ---------------------------------------------------------------------------------

/** The component keys of the output's allowed_component_levels, in document order (bitcoin_originals, …). */
export function componentNames(rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): readonly string[] {
  return Object.keys(rules.component_ladders);
}

// Every rung of every ladder → its component and rank, built once per rules document (the gate asks often).
const rungIndex = new WeakMap<ClaimGateRules, Map<string, { component: string; rank: number }>>();
function rungOf(level: unknown, rules: ClaimGateRules): { component: string; rank: number } | undefined {
  if (typeof level !== 'string') return undefined;
  let index = rungIndex.get(rules);
  if (!index) {
    index = new Map();
    for (const [component, ladder] of Object.entries(rules.component_ladders)) ladder.order.forEach((l, rank) => index!.set(l, { component, rank }));
    rungIndex.set(rules, index);
  }
  return index.get(level);
}

/** The component a level belongs to, by its letter (B3 → bitcoin_originals), when that level is on its ladder. */
export function componentOf(level: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): string | undefined {
  return rungOf(level, rules)?.component;
}

/**
 * Compares two levels of the same ladder (negative: a lower). Undefined when either is not on a ladder or they are
 * on different ladders (B2 and D5 are not comparable).
 */
export function compareComponentLevels(a: unknown, b: unknown, rules: ClaimGateRules = PUBLISHED_CLAIM_GATE_RULES): number | undefined {
  const ra = rungOf(a, rules);
  const rb = rungOf(b, rules);
  return ra === undefined || rb === undefined || ra.component !== rb.component ? undefined : ra.rank - rb.rank;
}
