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

/** The parts of the rules document the gate reads; the document holds more (its prose, boundary flags). */
export interface ClaimGateRules {
  schema: string;
  version: string;
  protocol_levels: ProtocolLevelsSection;
  scope_labels: ScopeLabelsSection;
  component_ladders: Record<string, ComponentLadder>;
  [key: string]: unknown;
}

/** The published rules document, as shipped with this build. */
export const PUBLISHED_CLAIM_GATE_RULES: ClaimGateRules = publishedRules as unknown as ClaimGateRules;
