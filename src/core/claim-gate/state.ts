/**
 * What the gate's rules share while they run over one input: the evidence view, the request, and the output
 * being built. Each rule (rules/*.ts) reads what earlier rules decided and adds its own findings.
 */
import type { EvidenceView } from './conditions.ts';
import type { RecordVerificationLevel } from './levels.ts';
import type { RequiredDowngrade } from './output.ts';
import type { RequestedClaims } from './requested.ts';
import type { ClaimGateRules } from './rules-document.ts';

export interface GateState {
  rules: ClaimGateRules;
  input: Record<string, unknown>;
  view: EvidenceView;
  requested: RequestedClaims;
  /** What the evidence supports (all levels). */
  supported: RecordVerificationLevel;
  /** What may be claimed so far; rules only ever lower it. */
  allowed: RecordVerificationLevel;
  scopeLabel: string;
  verificationScopeLabel: string;
  components: Record<string, string>;
  downgrades: RequiredDowngrade[];
  forbidden: string[];
  missing: string[];
  blocking: string[];
  limitations: string[];
  recordKind: string;
  canBuildReport: boolean;
  canBuildWrapper: boolean;
}

export interface GateRule {
  /** Stable id, as downgrades cite it (e.g. gate/protocol-level). */
  id: string;
  /** What the rule does, in one line (docs and the rules document list it). */
  summary: string;
  apply(state: GateState): void;
}

/** Adds a line once (findings lists never repeat a line). */
export function addOnce(list: string[], line: string): void {
  if (!list.includes(line)) list.push(line);
}
