import type { GateRule, GateState } from '../state.ts';
import { addOnce } from '../state.ts';
import { compareLevels, newWorkCeiling, type ProtocolLevel } from '../levels.ts';
import type { ProtocolLevelRule } from '../rules-document.ts';
import { downgradeReason } from './downgrade-reason.ts';

function ruleOf(state: GateState, level: string): ProtocolLevelRule | undefined {
  return state.rules.protocol_level_rules.find((r) => r.level === level);
}

/** The level and the ones it builds on, the level first (V5 → V5, V4, V3, V2, V1, V0). */
function chain(state: GateState, level: string): ProtocolLevelRule[] {
  const out: ProtocolLevelRule[] = [];
  for (let r = ruleOf(state, level); r && !out.includes(r); r = r.builds_on === null ? undefined : ruleOf(state, r.builds_on)) out.push(r);
  return out;
}

function unmet(state: GateState, rule: ProtocolLevelRule) {
  return rule.requires.filter((req) => !state.view.holds(req.when));
}

/** Whether the evidence supports a level: its requirements and those of every level it builds on hold. */
function supports(state: GateState, level: string): boolean {
  const c = chain(state, level);
  return c.length > 0 && c.every((r) => unmet(state, r).length === 0);
}

/**
 * The protocol level the evidence supports (protocol_level_rules: requirements, cumulative along builds_on), and
 * the allowed level: the request after gate/historical-only, lowered to what the evidence supports.
 */
export const protocolLevel: GateRule = {
  id: 'gate/protocol-level',
  summary: 'a level is supported when its requirements and those of every level it builds on hold; the allowed level is lowered to the highest supported level allowed for new work, and every unmet requirement is listed in missing_evidence',
  apply(state) {
    let supported: ProtocolLevel = 'V0';
    for (const r of state.rules.protocol_level_rules) {
      if ((compareLevels(r.level, supported, state.rules) ?? -1) > 0 && supports(state, r.level)) supported = r.level as ProtocolLevel;
    }
    state.supported = supported;

    // What is missing for the original request, lowest level first (what to do next comes first).
    const requested = state.requested.level === 'none' ? 'V0' : state.requested.level;
    const gaps = chain(state, requested).reverse().flatMap((r) => unmet(state, r).map((req) => ({ level: r.level, req })));
    for (const { level, req } of gaps) addOnce(state.missing, `${level} ${req.id}: ${req.missing}`);

    const target = state.allowed;
    if (supports(state, target)) return;
    const allowed = newWorkCeiling(supported, state.rules);
    if ((compareLevels(allowed, target, state.rules) ?? 0) >= 0) return;
    const first = gaps.find((g) => (compareLevels(g.level, allowed, state.rules) ?? 0) > 0 && (compareLevels(g.level, target, state.rules) ?? 0) <= 0) ?? gaps[0];
    const fallback = {
      reason: first ? `${first.level} needs ${first.req.missing}` : `the evidence supports ${allowed}`,
      rule: this.id,
    };
    state.downgrades.push({ from: target, to: allowed, ...downgradeReason(state, [target, first?.level], fallback) });
    state.allowed = allowed;
  },
};
