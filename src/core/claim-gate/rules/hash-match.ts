import type { GateRule } from '../state.ts';
import { evidenceList } from '../conditions.ts';

function label(entry: Record<string, unknown>, i: number): string {
  return typeof entry.artifact === 'string' && entry.artifact !== '' ? `"${entry.artifact}"` : `hash entry ${i}`;
}

/**
 * The gate compares expected and computed itself and never trusts a typed `match`: a hash claimed is a hash
 * compared. A mismatch is a failed check, so no verification claim may be built on the input.
 */
export const hashMatch: GateRule = {
  id: 'gate/hash-match',
  summary: 'the gate compares each hash entry\'s expected and computed itself; a mismatch, or match: true over different values, is a blocking failure',
  apply(state) {
    evidenceList(state.input, 'hashes').forEach((entry, i) => {
      const { expected, computed, match } = entry;
      if (typeof expected !== 'string' || typeof computed !== 'string') return;
      if (expected !== computed && expected.toLowerCase() === computed.toLowerCase()) {
        state.limitations.push(`${label(entry, i)}: expected and computed are the same hash in different letter case; write both in lowercase hex for the entry to count as hash evidence`);
      } else if (expected !== computed) {
        const lie = match === true ? ' although the entry says match: true' : '';
        state.blocking.push(`hash mismatch for ${label(entry, i)}: expected ${expected}, computed ${computed}${lie}; check the artifact and the expected value's source, and report the mismatch rather than a verification`);
      } else if (match === false) {
        state.limitations.push(`${label(entry, i)}: the entry says match: false but expected and computed are equal; the gate's own comparison (equal) is used`);
      }
    });
  },
};
