/**
 * The published Claim Gate rules (documents/claim-gate-rules.json, served as /api/claim-gate-rules.json), as the
 * gate reads them. The gate runs this document: level requirements, component ladders, forbidden claims and
 * downgrade rules are data here, so the published rules and the executed rules cannot drift.
 */
import publishedRules from '../../../documents/claim-gate-rules.json' with { type: 'json' };

export interface ScopeLabelWidth {
  label: string;
  /** Larger is wider: it claims more was covered. */
  width: number;
  /** The lowest protocol level that may carry the label; null when no level may (reserved). */
  lowest_level: string | null;
}

export interface ComponentLadder {
  /** The letter of spec section 8 rule 2's depth_achieved pattern (B, D, T, C, N, P). */
  prefix: string;
  /** Rungs, lowest first. */
  order: string[];
}

export interface ProtocolLevelsSection {
  order: string[];
  below_all: string;
  historical_only_for_new_work: string[];
  highest_for_new_work: string;
}

export interface ScopeLabelsSection {
  protocol_scope_labels: Record<string, string[]>;
  widths: ScopeLabelWidth[];
  not_comparable: string[];
}

/** A matcher on one value (all its operators must hold); see the document's condition_language. */
export interface Matcher {
  equals?: unknown;
  not_equals?: unknown;
  in?: unknown[];
  present?: boolean;
  pattern?: string;
  equals_field?: string;
  at_least?: number;
  min_items?: number;
}

/** A condition over one evidence input (the document's condition_language). */
export type Condition =
  | { list: string; where?: Record<string, Matcher>; at_least?: number; distinct?: string }
  | ({ field: string } & Matcher)
  | { all_of: Condition[] }
  | { any_of: Condition[] }
  | { rung: string }
  | { component_at_least: Record<string, string> };

export interface Requirement {
  id: string;
  /** What evidence would satisfy the requirement, in words (used in downgrades and missing_evidence). */
  missing: string;
  when: Condition;
}

export interface ProtocolLevelRule {
  level: string;
  name: string;
  /** The level whose requirements this one includes (null for V0). */
  builds_on: string | null;
  requires: Requirement[];
  /** Claims in words that may not be made at this level. */
  forbidden_positive_claims: string[];
}

export interface Rung {
  missing: string;
  when: Condition;
}

export interface ForbiddenClaimRule {
  claim: string;
  reason: string;
  /** When present, the claim is forbidden only when this holds. */
  when?: Condition;
}

export interface DowngradeRule {
  id: string;
  /** The requested level (protocol or component) the rule is about. */
  requested: string;
  /** When present, the rule gives its reason only when this holds (what the input has instead). */
  when?: Condition;
  /** When present, the evidence without which the request is downgraded: the rule gives its reason only when it is absent. */
  unless?: Condition;
  reason: string;
}

export interface RecordKindsSection {
  report_kinds: string[];
  wrapper_kind: string;
  when_blocked: string;
  /** What an input marked test_fixture becomes. */
  test_fixture_kind: string;
  report_requires: string[];
  /** Declaration flags that must not be false. */
  declaration_flags: string[];
}

/** The parts of the rules document the gate reads; the document holds more (its prose, boundary flags). */
export interface ClaimGateRules {
  schema: string;
  version: string;
  accepted_input_schemas: string[];
  protocol_levels: ProtocolLevelsSection;
  scope_labels: ScopeLabelsSection & {
    strong_missing: Record<string, string>;
    strong_when: Record<string, Condition>;
    verification_scope_label_by_allowed_label: Record<string, string>;
  };
  protocol_level_rules: ProtocolLevelRule[];
  component_ladders: Record<string, ComponentLadder & { rungs: Record<string, Rung> }>;
  forbidden_claim_rules: ForbiddenClaimRule[];
  downgrade_rules: DowngradeRule[];
  template_placeholder_markers: string[];
  record_kinds: RecordKindsSection;
  [key: string]: unknown;
}

/** The published rules document, as shipped with this build. */
export const PUBLISHED_CLAIM_GATE_RULES: ClaimGateRules = publishedRules as unknown as ClaimGateRules;
