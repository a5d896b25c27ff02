import { CLAIM_GATE_RULE_ID, judgeSubmissionClaim } from '../claim-gate.ts';
import type { ChainRule } from './rule.ts';

/**
 * Issue 13: a verification record with an evidence_input is re-evaluated by the Claim Gate; it may not claim more
 * than the gate allows, and its claim_gate_output and generated_by must be the gate's run (../claim-gate.ts).
 */
export const claimGate: ChainRule = {
  id: CLAIM_GATE_RULE_ID,
  summary:
    'A verification record carrying an evidence_input claims no more than the Claim Gate allows for it, and its claim_gate_output is the gate\'s own re-evaluated answer (spec 1.5, 2.2, 7).',
  check({ recordType, record }) {
    if (recordType !== 'verification' || !record) return [];
    return judgeSubmissionClaim(record)?.findings ?? [];
  },
};
