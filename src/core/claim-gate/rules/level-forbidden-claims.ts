import type { GateRule } from '../state.ts';
import { addOnce } from '../state.ts';
import { claimContains } from './claim-words.ts';

/** A claim in words that the allowed level's forbidden_positive_claims name is dropped, with the reason. */
export const levelForbiddenClaims: GateRule = {
  id: 'gate/level-forbidden-claims',
  summary: 'a requested claim in words containing a forbidden positive claim of the allowed level (e.g. "hash verified" at V2) may not be made: it is listed in forbidden_claims and downgraded to "not made"',
  apply(state) {
    const rule = state.rules.protocol_level_rules.find((r) => r.level === state.allowed);
    if (!rule) return;
    for (const claim of state.requested.words) {
      const phrase = rule.forbidden_positive_claims.find((p) => claimContains(claim, p));
      if (phrase === undefined || state.forbidden.includes(claim)) continue;
      addOnce(state.forbidden, claim);
      state.downgrades.push({ from: claim, to: 'not made', reason: `"${phrase}" may not be claimed at ${state.allowed} (${rule.name})`, rule: this.id });
    }
  },
};
