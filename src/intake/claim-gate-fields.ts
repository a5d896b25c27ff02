/**
 * What intake keeps of a strict evidence claim (issue 13), kept apart from the general mapping in to-echo-record.ts:
 * for a verification submission that carries an evidence_input, the archived record gets the Claim Gate's output as
 * this core re-evaluates it at accept time (the gateway refused any submission whose embedded output differed) and
 * the submission's generated_by. The evidence input itself stays in extensions.record_chain.record_jcs, the signed
 * record, from which the site runs the gate again.
 */
import { judgeSubmissionClaim, type JsonObject, type Submission } from '../core/record-chain/index.ts';

export function claimGateFields(submission: Submission): JsonObject {
  if (submission.record_type !== 'verification') return {};
  const judgement = judgeSubmissionClaim(submission.record);
  const generatedBy = submission.record.generated_by;
  if (!judgement || generatedBy === null || typeof generatedBy !== 'object') return {};
  return { claim_gate_output: judgement.output as unknown as JsonObject, generated_by: generatedBy as JsonObject };
}
