import type { GateRule } from '../state.ts';
import { compareLevels, highestLevelForNewWork, isHistoricalOnly, newWorkCeiling, type ProtocolLevel } from '../levels.ts';

/**
 * DECISIONS 11 and 17: V4+, V6, V7, V8 stay in old records; new work may be allowed at most the document's
 * highest_for_new_work (V5). A request above that cap is lowered too, even one the historical list does not name, so
 * that the cap holds whatever the list says.
 */
export const historicalOnly: GateRule = {
  id: 'gate/historical-only',
  summary: 'a requested historical-only level (V4+, V6, V7, V8), or one above highest_for_new_work, is lowered to the highest level allowed for new work below it (V4+ → V4, V6–V8 → V5)',
  apply(state) {
    const requested = state.allowed;
    const highest = highestLevelForNewWork(state.rules);
    const historical = isHistoricalOnly(requested, state.rules);
    if (!historical && (compareLevels(requested, highest, state.rules) ?? 0) <= 0) return;
    const ceiling = newWorkCeiling(requested as ProtocolLevel, state.rules);
    state.downgrades.push({
      from: requested,
      to: ceiling,
      reason: historical
        ? `${requested} is historical-only: it stays valid in old records, but new work may claim at most ${highest} (V4+, V6, V7, V8 are never allowed)`
        : `new work may claim at most ${highest}: ${requested} is above it`,
      rule: this.id,
    });
    state.allowed = ceiling;
  },
};
