import type { GateState } from '../state.ts';

/**
 * The reason for lowering a request `from`: a matching rule of the document's downgrade_rules when one applies
 * (its unless-evidence is absent), else the caller's reason and rule.
 */
export function downgradeReason(state: GateState, from: string, fallback: { reason: string; rule: string }): { reason: string; rule: string } {
  for (const r of state.rules.downgrade_rules) {
    if (r.requested === from && !state.view.holds(r.unless)) return { reason: r.reason, rule: `gate/downgrade-rules:${r.id}` };
  }
  return fallback;
}
