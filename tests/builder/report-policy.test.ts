/**
 * The report-builder policy as the report command runs it (src/builder/commands/report-policy.ts): every flag of the
 * published document is one the command acts on, and a changed flag changes what the report does.
 */
import { describe, expect, it } from 'vitest';
import { ALWAYS_APPLIED_RULES, buildRefusal, completeClaim, POLICY_READ_RULES, REPORT_POLICY_RULES } from '../../src/builder/commands/report-policy.ts';
import { evaluateClaimGate } from '../../src/core/claim-gate/index.ts';
import { hashEvidenceInput } from '../helpers/evidence.ts';

const ALL_ON = Object.fromEntries(POLICY_READ_RULES.map((r) => [r, true]));
const ALL_OFF = Object.fromEntries(POLICY_READ_RULES.map((r) => [r, false]));

describe('the report-builder policy', () => {
  it('names only flags the report command acts on, and every flag it always applies is true', () => {
    expect(Object.keys(REPORT_POLICY_RULES).sort()).toEqual([...ALWAYS_APPLIED_RULES, ...POLICY_READ_RULES].sort());
    for (const rule of ALWAYS_APPLIED_RULES) expect(REPORT_POLICY_RULES[rule], rule).toBe(true);
  });

  it('refuses a build on blocking failures when it says so', () => {
    const failed = evaluateClaimGate(hashEvidenceInput('machine', 'e'.repeat(64)));
    expect(failed.blocking_failures.length).toBeGreaterThan(0);
    expect(buildRefusal(failed, ALL_ON)).toEqual(failed.blocking_failures);
    expect(buildRefusal(failed, ALL_OFF)).toEqual([]);
    expect(buildRefusal(evaluateClaimGate(hashEvidenceInput()), ALL_ON)).toEqual([]);
  });

  it('completes the claim with the input’s limitations, every downgrade and the forbidden claims, once each', () => {
    const input = hashEvidenceInput('self_reported');
    const output = { ...evaluateClaimGate(input), forbidden_claims: ['truth proven'] };
    expect(output.required_downgrades.length).toBeGreaterThan(0);
    const claim = { limitations: ['mine', 'one artifact only'], claims_not_made: ['no authority'] };
    completeClaim(claim, input, output, ALL_ON);
    expect(claim.limitations).toEqual([
      'mine',
      'one artifact only',
      ...output.required_downgrades.map((d) => `Claim Gate downgrade ${d.from} → ${d.to}: ${d.reason} (${d.rule})`),
    ]);
    expect(claim.claims_not_made).toEqual(['no authority', 'Not claimed (the Claim Gate forbids it): truth proven']);

    const untouched = { limitations: ['mine'], claims_not_made: ['no authority'] };
    completeClaim(untouched, input, output, ALL_OFF);
    expect(untouched).toEqual({ limitations: ['mine'], claims_not_made: ['no authority'] });
  });
});
