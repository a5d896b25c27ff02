import type { GateRule } from '../state.ts';
import { addOnce } from '../state.ts';
import { claimContains } from './claim-words.ts';

/** Claims no evidence can support (forbidden_claim_rules): requesting one is a blocking failure. */
export const forbiddenClaims: GateRule = {
  id: 'gate/forbidden-claims',
  summary: 'a requested claim that contains a phrase of forbidden_claim_rules (where its condition holds) is forbidden and a blocking failure',
  apply(state) {
    for (const claim of state.requested.words) {
      for (const rule of state.rules.forbidden_claim_rules) {
        if (!claimContains(claim, rule.claim)) continue;
        if (rule.when && !state.view.holds(rule.when)) continue;
        addOnce(state.forbidden, claim);
        state.blocking.push(`the claim "${claim}" is forbidden: ${rule.reason}; remove it from claims_requested_by_agent`);
      }
    }
  },
};
