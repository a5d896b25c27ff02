/**
 * An evidence input with one hash entry, for the tests of the gate's callers (record-chain rule, record page): built
 * from the gate's own test inputs (scripts/lib/claim-gate-inputs.ts). Computed by the machine it supports V3; typed
 * by hand (self_reported) a V2 reference check; with a computed value that differs from the expected one, nothing.
 */
import { boundaryInput, machineHash, type Json } from '../../scripts/lib/claim-gate-inputs.ts';

export const EXPECTED_HEX = 'd'.repeat(64);

export function hashEvidenceInput(computedBy: 'machine' | 'self_reported' = 'machine', computed = EXPECTED_HEX): Json {
  const input = boundaryInput();
  const hash = { ...machineHash('release-v1.0.tar.gz', EXPECTED_HEX, '/api/hashes.json'), computed, match: computed === EXPECTED_HEX, computed_by: computedBy };
  return { ...input, evidence: { ...input.evidence, hashes: [hash] }, limitations: ['one artifact only'], claims_requested_by_agent: ['V3'] };
}
