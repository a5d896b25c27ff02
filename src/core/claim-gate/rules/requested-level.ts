import type { GateRule } from '../state.ts';
import { addOnce } from '../state.ts';

/** The gate never allows more than requested: it starts from the highest protocol level the agent asked for. */
export const requestedLevel: GateRule = {
  id: 'gate/requested-level',
  summary: 'the allowed level starts at the highest protocol level in claims_requested_by_agent (V0 when none is named) and is only ever lowered',
  apply(state) {
    if (state.requested.level === 'none') {
      state.allowed = 'V0';
      addOnce(state.limitations, 'claims_requested_by_agent names no protocol level (V0 … V5): only V0, read only, may be claimed');
    } else {
      state.allowed = state.requested.level;
    }
  },
};
