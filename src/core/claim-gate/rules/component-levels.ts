import type { GateRule } from '../state.ts';
import { addOnce } from '../state.ts';
import { compareComponentLevels, componentNames } from '../levels.ts';
import { downgradeReason } from './downgrade-reason.ts';

/**
 * Each component's level is the highest rung of its ladder (component_ladders) that the evidence reaches; a
 * requested component level above it is downgraded, one below it is kept (never more than requested).
 */
export const componentLevels: GateRule = {
  id: 'gate/component-levels',
  summary: 'each component level is the highest rung of its ladder the evidence reaches, capped at the level requested; a higher request is downgraded with the rung\'s missing evidence',
  apply(state) {
    for (const component of componentNames(state.rules)) {
      const reached = state.view.componentLevel(component)!;
      const requested = state.requested.components.get(component);
      if (requested === undefined || (compareComponentLevels(requested, reached, state.rules) ?? 0) <= 0) {
        state.components[component] = requested ?? reached;
        continue;
      }
      const missing = state.rules.component_ladders[component]!.rungs[requested]?.missing ?? `evidence for ${requested}`;
      const { reason, rule } = downgradeReason(state, requested, { reason: `${requested} needs ${missing}`, rule: this.id });
      state.downgrades.push({ from: requested, to: reached, reason, rule });
      addOnce(state.missing, `${component} ${requested}: ${missing}`);
      state.components[component] = reached;
    }
  },
};
