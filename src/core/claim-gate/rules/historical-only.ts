import type { GateRule } from '../state.ts';
import { highestLevelForNewWork, isHistoricalOnly, newWorkCeiling, type ProtocolLevel } from '../levels.ts';

/** DECISIONS 11 and 17: V4+, V6, V7, V8 stay in old records; new work may be allowed at most V5. */
export const historicalOnly: GateRule = {
  id: 'gate/historical-only',
  summary: 'a requested historical-only level (V4+, V6, V7, V8) is lowered to the highest level allowed for new work below it (V4+ → V4, V6–V8 → V5)',
  apply(state) {
    const requested = state.allowed;
    if (!isHistoricalOnly(requested, state.rules)) return;
    const ceiling = newWorkCeiling(requested as ProtocolLevel, state.rules);
    state.downgrades.push({
      from: requested,
      to: ceiling,
      reason: `${requested} is historical-only: it stays valid in old records, but new work may claim at most ${highestLevelForNewWork(state.rules)} (V4+, V6, V7, V8 are never allowed)`,
      rule: this.id,
    });
    state.allowed = ceiling;
  },
};
