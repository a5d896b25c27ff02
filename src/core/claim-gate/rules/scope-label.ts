import type { GateRule } from '../state.ts';
import { protocolScopeLabels } from '../levels.ts';

/**
 * V2 and V3 are claimed with a scope label (V2-minimal/V2-strong, V3-minimal/V3-strong): strong only when the
 * document's strong_when holds, and never wider than a label the agent requested. The verification_scope_label
 * is derived from it, never chosen by the agent.
 */
export const scopeLabel: GateRule = {
  id: 'gate/scope-label',
  summary: 'V2/V3 get their minimal label unless scope_labels.strong_when holds (and the agent did not ask for less); verification_scope_label is derived from the allowed label',
  apply(state) {
    const level = state.allowed;
    const labels = protocolScopeLabels(level, state.rules);
    let label: string = level;
    if (labels.length > 0) {
      const strongWhen = state.rules.scope_labels.strong_when[level];
      const strong = strongWhen !== undefined && state.view.holds(strongWhen);
      label = strong ? labels[labels.length - 1]! : labels[0]!;
      const asked = state.requested.level === level ? state.requested.scopeLabel : undefined;
      if (asked !== undefined && labels.indexOf(asked) < labels.indexOf(label)) label = asked;
      if (asked !== undefined && labels.indexOf(asked) > labels.indexOf(label)) {
        state.downgrades.push({ from: asked, to: label, reason: `${asked} needs ${state.rules.scope_labels.strong_missing[level] ?? 'more evidence'}`, rule: this.id });
      }
    }
    state.scopeLabel = label;
    state.verificationScopeLabel = state.rules.scope_labels.verification_scope_label_by_allowed_label[label] ?? label;
  },
};
