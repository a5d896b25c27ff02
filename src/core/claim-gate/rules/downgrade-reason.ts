import type { GateState } from '../state.ts';

/**
 * The reason for lowering a request: the first rule of the document's downgrade_rules about one of `levels` (tried in
 * order: the level requested, then the level whose requirement the lowering passed first) whose `when` holds (or is
 * absent) and whose `unless` evidence is absent (or not named); else the caller's reason and rule.
 */
export function downgradeReason(state: GateState, levels: string | readonly (string | undefined)[], fallback: { reason: string; rule: string }): { reason: string; rule: string } {
  for (const level of typeof levels === 'string' ? [levels] : levels) {
    if (level === undefined) continue;
    for (const r of state.rules.downgrade_rules) {
      if (r.requested !== level) continue;
      if (r.when !== undefined && !state.view.holds(r.when)) continue;
      if (r.unless !== undefined && state.view.holds(r.unless)) continue;
      return { reason: r.reason, rule: `gate/downgrade-rules:${r.id}` };
    }
  }
  return fallback;
}
