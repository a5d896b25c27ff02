import type { GateRule } from '../state.ts';
import { addOnce } from '../state.ts';
import { evidenceList } from '../conditions.ts';

/**
 * Says which hash entries were typed by hand. The rules document's conditions for V3, D2 and D4 count only
 * entries with computed_by "machine"; this rule makes that visible, entry by entry.
 */
export const selfReportedHash: GateRule = {
  id: 'gate/self-reported-hash',
  summary: 'a hash entry without computed_by "machine" was typed by hand: it counts at most as a self-reported reference check (V2), never for V3, D2 or D4',
  apply(state) {
    evidenceList(state.input, 'hashes').forEach((entry, i) => {
      const name = typeof entry.artifact === 'string' && entry.artifact !== '' ? `"${entry.artifact}"` : `hash entry ${i}`;
      if (entry.computed_by !== 'machine') {
        addOnce(state.limitations, `the hash of ${name} was typed by hand (no computed_by "machine"): it is at most a self-reported reference check, not V3/D2 evidence; compute it with the builder's evidence command`);
      } else if (typeof entry.command !== 'string' || entry.command.trim() === '') {
        addOnce(state.limitations, `the hash of ${name} says computed_by "machine" but records no command: it does not count as machine-computed`);
      }
    });
  },
};
